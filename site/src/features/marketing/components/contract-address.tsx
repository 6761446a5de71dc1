import { useRef } from 'react';
import { CopyIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { PLACEHOLDER_CONTRACT_ADDRESS } from '../../../config/placeholder';

function selectText(element: HTMLElement) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * ContractAddress shows the full token address (middle-truncated on narrow screens only visually) and a Copy
 * button; without a clipboard it selects the address and says how to copy it.
 */
export function ContractAddress({ address }: { address: string }) {
  const codeRef = useRef<HTMLElement>(null);
  const isPlaceholder = address === PLACEHOLDER_CONTRACT_ADDRESS;

  async function copy() {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(address);
      const shown = await toast({ title: 'Contract address copied!' });
      setTimeout(shown.dismiss, 4000);
    } catch {
      if (codeRef.current) selectText(codeRef.current);
      void toast({
        variant: 'destructive',
        title: 'Copying is not available here',
        description: 'The address is selected: press Ctrl+C (⌘C on Mac) or long-press to copy it.',
      });
    }
  }

  return (
    <div className="w-full min-w-0 max-w-xl rounded-2xl border border-gold-300/30 bg-royal-900/80 p-3 shadow-[0_0_40px_-12px_rgba(245,197,66,0.45)]">
      <div className="mb-2 flex flex-wrap items-center gap-2 px-1">
        <span id="ca-label" className="text-xs font-semibold tracking-[0.2em] text-gold-200 uppercase">
          Contract address
        </span>
        {isPlaceholder && (
          <span className="rounded-full border border-orange-300/60 bg-orange-950 px-2 py-0.5 text-[11px] font-semibold text-orange-100">
            Placeholder: not the real token yet
          </span>
        )}
      </div>
      <div className="flex items-center gap-2">
        <code
          ref={codeRef}
          aria-labelledby="ca-label"
          data-testid="contract-address"
          title={address}
          className="block min-w-0 flex-1 overflow-hidden rounded-xl bg-royal-950 px-3 py-3 font-mono text-sm whitespace-nowrap text-white select-all sm:text-[0.95rem]"
        >
          {address.slice(0, 6)}
          <span className="inline-block max-w-[calc(100%-12ch)] truncate align-bottom sm:max-w-none">
            {address.slice(6, -6)}
          </span>
          {address.slice(-6)}
        </code>
        <button
          type="button"
          onClick={copy}
          aria-label="Copy contract address"
          className="inline-flex min-h-11 shrink-0 items-center gap-2 rounded-xl bg-gold-300 px-4 font-semibold text-royal-950 transition-transform hover:bg-gold-200 active:scale-95"
        >
          <CopyIcon className="h-4 w-4" />
          Copy
        </button>
      </div>
      <p className="mt-2 px-1 text-xs text-white/75">
        Compare every character, including the middle ones, with our official X account before you swap.
      </p>
    </div>
  );
}
