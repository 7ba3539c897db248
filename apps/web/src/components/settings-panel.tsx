import { useId, useState } from 'react';
import * as Popover from '@radix-ui/react-popover';
import {
  GLOBAL_ACCESS_CONFIRM,
  SELF_DESTRUCT_ARMED_TEXT,
  SELF_DESTRUCT_FINAL_WARNING,
  useActivateGlobalAccess,
  useDeactivateGlobalAccess,
  useSelfDestruct,
} from '../lib/settings';
import { GlobeIcon, RocketIcon, SlidersIcon, ZapIcon } from './icons';
import { ExportVaultSection } from './export-vault';
import { ImportJournalSection } from './import-journal';
import { ReauthenticationPrompt } from './reauthentication-prompt';
import { SecondFactorSection } from './second-factor-section';
import { isAskingForReauthentication } from '../lib/reauthentication';

/**
 * The panel keeps 16 px from the window's edges, and from its bottom the room
 * of a toast (bottom-right from 640 px, up to some 140 px tall with a reason
 * under it): a taller panel scrolls inside rather than run under the toast.
 */
const PANEL_COLLISION_PADDING = { top: 16, right: 16, left: 16, bottom: 160 };

/**
 * The "VAULT SETTINGS" dropdown of the desktop header (spec section 2.4).
 * Closing it in any way (outside click, Escape, the trigger) disarms PERFECT CELL.
 */
export function SettingsMenu({ globalAccess }: { globalAccess: boolean }) {
  const [open, setOpen] = useState(false);
  const [armed, setArmed] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const titleId = useId();
  // Held here, not in the panel's content, so a call still pending when the panel closes shows when it reopens.
  const activate = useActivateGlobalAccess();
  const deactivate = useDeactivateGlobalAccess();
  const selfDestruct = useSelfDestruct();

  function onOpenChange(next: boolean) {
    // The re-authentication prompt sits above the panel: the panel waits for it rather than closing.
    if (!next && isAskingForReauthentication()) return;
    setOpen(next);
    if (!next) {
      setArmed(false);
      setExportOpen(false);
    }
  }

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <ReauthenticationPrompt />
      <Popover.Trigger asChild>
        <button type="button" className="btn btn-ghost px-3 text-sm data-[state=open]:border-hero-yellow data-[state=open]:text-hero-yellow">
          <SlidersIcon />
          SETTINGS
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={10}
          collisionPadding={PANEL_COLLISION_PADDING}
          aria-labelledby={titleId}
          className="pop-in z-50 max-h-[var(--radix-popover-content-available-height)] w-[22rem] max-w-[calc(100vw-2rem)] overflow-y-auto overflow-x-hidden rounded-xl border-2 border-black bg-panel text-ink shadow-comic outline-none"
        >
          <div className="hazard h-2 border-b-2 border-black" aria-hidden="true" />
          <div className="space-y-4 p-5">
            <h2 id={titleId} className="comic-heading text-xl text-hero-yellow">
              VAULT SETTINGS
            </h2>
            <GlobalAccessSection on={globalAccess} activate={activate} deactivate={deactivate} />
            <SecondFactorSection />
            <ExportVaultSection open={exportOpen} onOpenChange={setExportOpen} />
            <ImportJournalSection />
            <SelfDestructSection
              armed={armed}
              setArmed={setArmed}
              selfDestruct={selfDestruct}
              onExportFirst={() => {
                setArmed(false);
                setExportOpen(true);
              }}
            />
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function GlobalAccessSection({
  on,
  activate,
  deactivate,
}: {
  on: boolean;
  activate: ReturnType<typeof useActivateGlobalAccess>;
  deactivate: ReturnType<typeof useDeactivateGlobalAccess>;
}) {
  const headingId = useId();

  function onActivate() {
    if (activate.isPending) return;
    if (window.confirm(GLOBAL_ACCESS_CONFIRM)) activate.mutate();
  }

  return (
    <section aria-labelledby={headingId} className="rounded-lg border-2 border-edge bg-vault-deep p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="comic-heading flex items-center gap-2 text-base text-hero-cyan">
          <RocketIcon />
          TO THE MOON
        </h3>
        <span className={`badge ${on ? 'bg-hero-yellow text-black' : 'bg-panel-2 text-muted'}`}>{on ? 'PUBLIC' : 'PRIVATE'}</span>
      </div>
      <p className="mt-2 text-sm text-muted">Makes all personal data publicly accessible</p>
      {on ? (
        <button type="button" className="btn btn-yellow mt-3 w-full text-sm" disabled={deactivate.isPending} onClick={() => deactivate.mutate()}>
          <GlobeIcon />
          {deactivate.isPending ? 'DEACTIVATING...' : 'DEACTIVATE'}
        </button>
      ) : (
        <button type="button" className="btn btn-yellow mt-3 w-full text-sm" disabled={activate.isPending} onClick={onActivate}>
          <RocketIcon />
          {activate.isPending ? 'LAUNCHING...' : 'ACTIVATE'}
        </button>
      )}
    </section>
  );
}

function SelfDestructSection({
  armed,
  setArmed,
  selfDestruct,
  onExportFirst,
}: {
  armed: boolean;
  setArmed: (armed: boolean) => void;
  selfDestruct: ReturnType<typeof useSelfDestruct>;
  /** Disarms and opens EXPORT VAULT: the owner's copy before the erase (optional). */
  onExportFirst: () => void;
}) {
  const headingId = useId();
  // After success the browser leaves for the login endpoint; nothing is offered meanwhile.
  const erasing = selfDestruct.isPending || selfDestruct.isSuccess;

  function onClick() {
    if (erasing) return;
    if (!armed) {
      setArmed(true);
      return;
    }
    if (window.confirm(SELF_DESTRUCT_FINAL_WARNING)) {
      selfDestruct.mutate(undefined, { onError: () => setArmed(false) });
    } else {
      setArmed(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className={`rounded-lg border-2 bg-vault-deep p-4 ${armed ? 'border-hero-red' : 'border-edge'}`}>
      <h3 id={headingId} className="comic-heading flex items-center gap-2 text-base text-hero-red">
        <ZapIcon />
        PERFECT CELL
      </h3>
      <p className="mt-2 text-sm font-semibold text-hero-red">DANGER: Irreversible data deletion</p>
      {armed ? (
        <>
          <p role="alert" className="mt-3 rounded-md border-2 border-black bg-hero-yellow px-3 py-2 text-sm font-bold text-black">
            {SELF_DESTRUCT_ARMED_TEXT}
          </p>
          <p className="mt-2 flex items-center justify-between gap-2 text-sm text-muted">
            Keep a copy of everything?
            <button type="button" className="btn btn-ghost px-3 text-xs" onClick={onExportFirst}>
              EXPORT FIRST
            </button>
          </p>
        </>
      ) : null}
      <button type="button" className="btn btn-red mt-3 w-full text-sm" disabled={erasing} onClick={onClick}>
        <ZapIcon />
        {erasing ? 'ERASING...' : armed ? 'CONFIRM' : 'INITIATE'}
      </button>
    </section>
  );
}
