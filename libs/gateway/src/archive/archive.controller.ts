import {
  BadRequestException,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { JournalImporter, VaultExporter, VaultImporter, countedBytes, importDetail } from '@vault/archive';
import {
  ExportRequest,
  GetOwnerProfile,
  IMPORT_PROGRESS_HEADER,
  VerifyOwner,
  describeIssues,
  type JournalImportProgress,
  type JournalImportSummary,
  type RestoreSummary,
} from '@vault/contracts';
import { RAW_BODY_ROUTE, contextLogger } from '@vault/platform';
import { RpcClient, RpcFailure } from '@vault/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { AccessRecorder } from '../audit/access-recorder.js';
import { RecentAuthentication } from '../auth/recent-authentication.js';
import type { AuthenticatedRequest } from '../vault/access-check.js';
import { JsonBody } from '../http/json-body.decorator.js';
import { OwnerOnly } from '../vault/route-flags.js';
import { VaultStateCache } from '../vault/vault-state.cache.js';
import { IMPORT_PROGRESS, type ImportProgressStore, UPLOADING } from './import-progress.store.js';
import { ProgressReporter } from './progress-reporter.js';

/** A restore's passphrase travels in this header, URI-encoded (a header holds Latin-1 only): the body is the archive. */
export const PASSPHRASE_HEADER = 'x-vault-passphrase';

/** Progress ids are 43 characters (32 random bytes, base64url): anything much longer is not one. */
const PROGRESS_ID_MAX = 100;

/**
 * The owner's data in and out. Both routes need the owner's own session
 * (never a visitor under global access), and each is recorded in the access
 * log, refused or not.
 */
@Controller('api/settings')
export class ArchiveController {
  private readonly logger = contextLogger(ArchiveController.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly exporter: VaultExporter,
    private readonly importer: VaultImporter,
    private readonly journalImporter: JournalImporter,
    private readonly access: AccessRecorder,
    private readonly state: VaultStateCache,
    private readonly recent: RecentAuthentication,
    @Inject(IMPORT_PROGRESS) private readonly progress: ImportProgressStore,
  ) {}

  /**
   * `{password, passphrase?}` → the archive, streamed as it is made (a zip,
   * or an age file with a passphrase). The password is checked again, with
   * the same lockout as a sign-in, so a session left open cannot take
   * everything. The access log records the export once it has been sent.
   */
  @OwnerOnly()
  @Post('export')
  async export(@JsonBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const parsed = ExportRequest.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeIssues(parsed.error));
    await this.reauthenticate(request, parsed.data.password);
    const encrypted = parsed.data.passphrase !== undefined;
    const archive = this.exporter.stream({ passphrase: parsed.data.passphrase });
    let outcome: 'sent' | 'failed' | undefined;
    archive.once('end', () => {
      outcome = 'sent';
      this.access.record(request, 'export', true);
    });
    archive.once('error', (error) => this.logger.error(`The export failed part-way: ${error.message}`));
    // Failed, or the browser went away before the end: recorded as an export that did not complete.
    archive.once('close', () => {
      if (outcome) return;
      outcome = 'failed';
      this.access.record(request, 'export', false);
    });
    const name = `vault-export-${new Date().toISOString().slice(0, 10)}.zip${encrypted ? '.age' : ''}`;
    return reply
      .status(200)
      .type(encrypted ? 'application/octet-stream' : 'application/zip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(archive);
  }

  /**
   * The archive as the raw body (a zip, or an age file with its passphrase
   * in `X-Vault-Passphrase`) → every record restored, or a 4xx naming why
   * not and an unchanged, empty vault. Only an empty vault takes one: its
   * owner signs in with the new vault's own credentials first.
   */
  @OwnerOnly()
  @Post('restore')
  @RouteConfig({ [RAW_BODY_ROUTE]: true })
  @HttpCode(200)
  async restore(@Req() request: FastifyRequest): Promise<RestoreSummary> {
    if (!(request.body instanceof Readable))
      throw new UnsupportedMediaTypeException('The body must be the archive file (application/zip or application/octet-stream)');
    try {
      const { restored, globalAccess } = await this.importer.restore({ body: request.body, passphrase: this.passphrase(request) });
      this.state.set({ destroyed: false, globalAccess });
      this.access.record(request, 'import', true);
      return { restored };
    } catch (error) {
      this.access.record(request, 'import', false);
      // What was not read of a refused upload is drained, so the connection can carry the answer.
      request.body.resume();
      throw error;
    }
  }

  /**
   * Another app's journal as the raw body (a zip: Day One's JSON export,
   * Markdown or text notes, Vault's own export) → its entries added to this
   * vault, and the summary: entries added, those already there (imported
   * before), photos kept, what was left out and why. A refused file (4xx)
   * leaves the vault as it was, as does a failure part-way.
   */
  @OwnerOnly()
  @Post('import-journal')
  @RouteConfig({ [RAW_BODY_ROUTE]: true })
  @HttpCode(200)
  async importJournal(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<JournalImportSummary> {
    if (!(request.body instanceof Readable)) throw new UnsupportedMediaTypeException('The body must be the export file (application/zip)');
    reply.header('cache-control', 'no-store');
    // Counted as it arrives: the access log gives each import's size, refused or not.
    const upload = countedBytes(request.body);
    let reporter: ProgressReporter | undefined;
    try {
      reporter = await this.reporterFor(request);
      const summary = await this.journalImporter.import({ body: upload.stream, passphrase: this.passphrase(request) }, reporter?.report);
      await reporter?.finished();
      this.access.record(request, 'import_journal', true, importDetail(upload.bytes(), summary));
      return summary;
    } catch (error) {
      await reporter?.failed();
      this.access.record(request, 'import_journal', false, importDetail(upload.bytes()));
      upload.stream.resume();
      request.body.resume();
      throw error;
    }
  }

  /** A record for the progress of the import the page is about to send: its id goes in the import's X-Vault-Import-Progress header. */
  @OwnerOnly()
  @Post('import-journal/progress')
  async startImportProgress(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ id: string }> {
    reply.header('cache-control', 'no-store');
    return { id: await this.progress.create({ progress: UPLOADING, startedAt: Date.now() }) };
  }

  /** Where that import stands: read by the page while the server stores what it sent. */
  @OwnerOnly()
  @Get('import-journal/progress/:id')
  async importProgress(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<JournalImportProgress> {
    reply.header('cache-control', 'no-store');
    // Fastify refuses a parameter over 100 characters (414) before this runs.
    const record = await this.progress.get(id);
    if (!record) throw new NotFoundException('No import has this progress id (it ended over an hour ago, or never began)');
    return record.progress;
  }

  /** The reporter of the progress record the import names, if it names one that exists. */
  private async reporterFor(request: FastifyRequest): Promise<ProgressReporter | undefined> {
    const id = request.headers[IMPORT_PROGRESS_HEADER];
    if (id === undefined) return undefined;
    if (typeof id !== 'string' || id.length > PROGRESS_ID_MAX) throw new BadRequestException(`${IMPORT_PROGRESS_HEADER}: must be the id of a progress record`);
    // A store that cannot be read costs the progress, not the import.
    const record = await this.progress.get(id).catch(() => undefined);
    return record ? new ProgressReporter(this.progress, id, record.startedAt) : undefined;
  }

  /** The passphrase of an encrypted archive, from its header. */
  private passphrase(request: FastifyRequest): string | undefined {
    const header = request.headers[PASSPHRASE_HEADER];
    if (typeof header !== 'string' || header.length === 0) return undefined;
    try {
      return decodeURIComponent(header);
    } catch {
      throw new BadRequestException(`${PASSPHRASE_HEADER}: must be URI-encoded`);
    }
  }

  /**
   * The password again; with a second factor enrolled, also a full
   * authentication (sign-in or re-authentication, factor included) within
   * the last five minutes, as every drastic action needs.
   */
  private async reauthenticate(request: FastifyRequest, password: string): Promise<void> {
    const owner = await this.rpc.send(GetOwnerProfile, {});
    try {
      const { secondFactor } = await this.rpc.send(VerifyOwner, {
        username: owner.username,
        password,
        client: { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 1000) },
      });
      if (secondFactor.length > 0) this.recent.require(request as AuthenticatedRequest);
    } catch (error) {
      this.access.record(request, 'export', false);
      // Not a 401: the session is fine, only the password re-entered is wrong.
      if (error instanceof RpcFailure && error.status === 401) throw new ForbiddenException('password: is not the owner password');
      throw error;
    }
  }
}
