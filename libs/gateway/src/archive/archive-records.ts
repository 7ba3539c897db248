import {
  ExportAccessLog,
  ExportJournal,
  ExportMissions,
  ExportPhotos,
  ExportScheduleItems,
  ExportStudies,
  ExportTargets,
  ExportWeeklyTemplates,
  type ArchiveRecordKind,
  type RpcContract,
  type RpcResponse,
} from '@vault/contracts';
import type { RpcClient } from '@vault/transport';

/** Which contract pages out each kind of record, in vault.json's order. */
export const EXPORT_PAGES = {
  targets: ExportTargets,
  weeklyTemplates: ExportWeeklyTemplates,
  scheduleItems: ExportScheduleItems,
  missions: ExportMissions,
  studies: ExportStudies,
  journal: ExportJournal,
  photos: ExportPhotos,
  accessLog: ExportAccessLog,
} as const satisfies Record<ArchiveRecordKind, RpcContract>;

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
