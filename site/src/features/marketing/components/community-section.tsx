import type { ReactNode } from 'react';
import { ChartIcon, TelegramIcon, XLogoIcon } from '../../../components/ui/icons';
import { siteConfig } from '../../../config/site';
import { SECTION_IDS } from '../../../config/paths';
import { ExternalAction } from './external-action';
import { HomeSection } from './home-section';

interface Channel {
  name: string;
  action: string;
  href: string;
  text: string;
  icon: ReactNode;
}

const actionClass =
  'mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-full border border-gold-300/60 px-6 font-semibold text-gold-100 transition-colors hover:bg-gold-300 hover:text-royal-950';

/** CommunitySection links the court's channels: "Join the Royal Court". */
export function CommunitySection() {
  const channels: Channel[] = [
    {
      name: 'Twitter/X',
      action: 'Follow Us',
      href: siteConfig.xUrl,
      text: 'Royal decrees, memes and raid calls.',
      icon: <XLogoIcon className="h-7 w-7" />,
    },
    {
      name: 'Telegram',
      action: 'Join Chat',
      href: siteConfig.telegramUrl,
      text: 'The court’s great hall, open day and night.',
      icon: <TelegramIcon className="h-7 w-7" />,
    },
    {
      name: 'DexScreener',
      action: 'View Chart',
      href: siteConfig.dexscreenerUrl,
      text: 'Watch the Queen’s treasury grow in real time.',
      icon: <ChartIcon className="h-7 w-7" />,
    },
  ];

  return (
    <HomeSection
      id={SECTION_IDS.community}
      eyebrow="Community"
      title="Join the Royal Court"
      intro="The kingdom is its people. Take your seat."
    >
      <ul className="mx-auto grid max-w-5xl gap-5 md:grid-cols-3">
        {channels.map((channel) => (
          <li
            key={channel.name}
            className="flex flex-col items-center rounded-3xl border border-white/10 bg-royal-900/70 p-8 text-center"
          >
            <span className="mb-4 grid h-16 w-16 place-items-center rounded-full bg-gradient-to-br from-sol-purple via-sol-blue to-sol-green text-royal-950">
              {channel.icon}
            </span>
            <h3 className="text-xl font-bold text-gold-100">{channel.name}</h3>
            <p className="mt-2 text-white/80">{channel.text}</p>
            <ExternalAction
              href={channel.href}
              label={`${channel.name}: ${channel.action}`}
              className={actionClass}
            >
              {channel.href ? channel.action : `${channel.action} (coming soon)`}
            </ExternalAction>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
