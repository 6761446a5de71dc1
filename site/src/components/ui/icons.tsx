import type { SVGProps } from 'react';

// Inline icons (no icon library on the first load). All decorative: accessible names live on the controls.

type IconProps = SVGProps<SVGSVGElement>;

function Outline({ children, ...props }: IconProps) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {children}
    </svg>
  );
}

export const CrownIcon = (props: IconProps) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M3 7.5 7.6 11 12 4l4.4 7L21 7.5 19.3 18H4.7L3 7.5Z" />
    <rect x="4.5" y="19" width="15" height="2" rx="1" />
  </svg>
);

export const XLogoIcon = (props: IconProps) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.19L2 3h6.33l4.37 5.77L17.75 3Zm-1.08 16.2h1.7L7.4 4.73H5.58L16.67 19.2Z" />
  </svg>
);

export const TelegramIcon = (props: IconProps) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" {...props}>
    <path d="M21.5 4.1 2.9 11.3c-1.3.5-1.3 1.2-.2 1.5l4.8 1.5 1.8 5.6c.2.6.4.8.8.8.4 0 .6-.2.9-.5l2.3-2.2 4.7 3.5c.9.5 1.5.2 1.7-.8l3.1-14.5c.3-1.3-.5-1.8-1.3-1.5ZM9.3 14.1l8.9-5.6c.4-.3.8-.1.5.2l-7.3 6.6-.3 3.1-1.8-4.3Z" />
  </svg>
);

export const ChartIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M3 3v18h18" />
    <path d="m7 15 4-4 3 3 5-6" />
  </Outline>
);

export const MenuIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Outline>
);

export const CloseIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Outline>
);

export const CopyIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </Outline>
);

export const PauseIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M9 5v14M15 5v14" />
  </Outline>
);

export const PlayIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="m7 4 13 8-13 8V4Z" />
  </Outline>
);

export const ArrowIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Outline>
);

export const BoltIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" />
  </Outline>
);

export const PeopleIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M21.5 20a6.5 6.5 0 0 0-4-6" />
  </Outline>
);

export const ScrollIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M8 21h11a2 2 0 0 0 2-2v-2H10v2a2 2 0 1 1-4 0V5a2 2 0 0 0-2-2h12a2 2 0 0 1 2 2v12" />
    <path d="M10 8h5M10 12h5" />
  </Outline>
);

export const LinkIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7" />
    <path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" />
  </Outline>
);

export const CoinIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .9-3 2s1.3 1.7 3 2 3 .9 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6v2M12 16v2" />
  </Outline>
);

export const FlameIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 22a7 7 0 0 0 7-7c0-4-3-6.5-4-10-2 1.5-3 3.5-3 6-1-1-1.5-2-1.5-3.5C8 9.5 5 12 5 15a7 7 0 0 0 7 7Z" />
  </Outline>
);
