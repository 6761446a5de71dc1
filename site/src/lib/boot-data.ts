import { BOOT_SCRIPT_ID, parseBootData, type BootData } from '../page-contract/page-contract';

export type { BootData, PublicSettings } from '../page-contract/page-contract';

/** readBootData parses the server-provided boot script; a missing or malformed one means "unknown". */
export function readBootData(doc: Document | undefined = globalThis.document): BootData {
  return parseBootData(doc?.getElementById(BOOT_SCRIPT_ID)?.textContent);
}
