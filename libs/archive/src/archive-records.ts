import { EXPORT_PAGES, type ArchiveRecordKind, type RpcResponse } from '@vault/contracts';
import type { RpcClient } from '@vault/transport';

type PageContract = (typeof EXPORT_PAGES)[ArchiveRecordKind];
type RecordOf<C extends PageContract> = RpcResponse<C>['records'][number];

/** Every record of one kind, a page (one message) at a time: only the current page is held. */
export async function* pagesOf<C extends PageContract>(rpc: RpcClient, contract: C): AsyncGenerator<RecordOf<C>[]> {
  let after: string | undefined;
  do {
    const page = (await rpc.send(contract as PageContract, after ? { after } : {})) as { records: RecordOf<C>[]; next?: string };
    if (page.records.length > 0) yield page.records;
    after = page.next;
  } while (after);
}
