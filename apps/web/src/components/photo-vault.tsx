import { useId, useRef, useState, type ChangeEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { PHOTO_CONTENT_TYPES, PHOTO_MAX_BYTES, type Photo } from '@vault/contracts';
import { PHOTO_MAX_MB, formatBytes, photoFileProblem, useDeletePhoto, usePhotos, useUploadPhoto } from '../lib/photos';
import { formatEntryTime } from '../lib/journal';
import { CloseIcon, EyeOffIcon, ImageIcon, PlusIcon, TrashIcon } from './icons';
import { Panel } from './screen-frame';
import { CardLoading, EmptyState, LoadError } from './states';

/**
 * SECURE PHOTO VAULT (spec section 2.9): every stored photo, newest first, an
 * upload dialog, "remove from view" (this visit only) and a confirmed delete.
 */
export function PhotoVault() {
  const photos = usePhotos();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const remove = useDeletePhoto();
  const visible = photos.data?.filter((p) => !hidden.has(p.id)) ?? [];

  function hide(id: string) {
    setHidden((prev) => new Set(prev).add(id));
  }

  function erase(photo: Photo) {
    if (!window.confirm('Delete this photo from the vault for good? This cannot be undone.')) return;
    remove.mutate(photo.id);
  }

  return (
    <Panel
      title="SECURE PHOTO VAULT"
      subtitle={`JPEG, PNG, GIF or WebP, up to ${PHOTO_MAX_MB} MB each`}
      icon={<ImageIcon />}
      accent="cyan"
      actions={<UploadDialog />}
    >
      {photos.isPending ? (
        <CardLoading>Loading photos...</CardLoading>
      ) : photos.isError ? (
        <LoadError error={photos.error} onRetry={() => void photos.refetch()} retrying={photos.isFetching} />
      ) : visible.length === 0 ? (
        <EmptyState icon={<ImageIcon />} hint="Your secure photo vault is empty">
          No photos uploaded yet
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Photos">
          {visible.map((photo) => {
            const when = formatEntryTime(photo.createdAt);
            return (
              <li key={photo.id} className="overflow-hidden rounded-lg border-2 border-edge bg-vault-deep">
                <img
                  src={photo.objectPath}
                  alt={when ? `Vault photo from ${when}` : 'Vault photo'}
                  loading="lazy"
                  decoding="async"
                  className="aspect-square w-full bg-black object-cover"
                />
                <div className="flex items-center justify-between gap-1 p-1.5">
                  <span className="min-w-0 truncate text-xs text-muted">{when}</span>
                  <span className="flex shrink-0 gap-1">
                    <button
                      type="button"
                      className="rounded p-1.5 text-muted hover:bg-panel-2 hover:text-ink"
                      onClick={() => hide(photo.id)}
                      aria-label="Remove from view"
                      title="Remove from view (this visit only)"
                    >
                      <EyeOffIcon />
                    </button>
                    <button
                      type="button"
                      className="rounded p-1.5 text-hero-red hover:bg-panel-2"
                      onClick={() => erase(photo)}
                      disabled={remove.isPending && remove.variables === photo.id}
                      aria-label="Delete photo"
                      title="Delete for good"
                    >
                      <TrashIcon />
                    </button>
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

/** One image at a time, checked before upload, started by an explicit button. */
function UploadDialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [keepLocation, setKeepLocation] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const problemId = useId();
  const upload = useUploadPhoto(setProgress);

  function reset() {
    setFile(null);
    setKeepLocation(false);
    setProblem(null);
    setProgress(0);
    upload.reset();
    if (inputRef.current) inputRef.current.value = '';
  }

  function onOpenChange(next: boolean) {
    if (!next && upload.isPending) return;
    setOpen(next);
    if (!next) reset();
  }

  function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setProgress(0);
    upload.reset();
    if (!chosen) {
      setFile(null);
      setProblem(null);
      return;
    }
    const reason = photoFileProblem(chosen);
    setProblem(reason);
    setFile(reason ? null : chosen);
  }

  function start() {
    if (!file || upload.isPending) return;
    setProgress(0);
    upload.mutate(
      { file, keepLocation },
      {
        onSuccess: () => {
          setOpen(false);
          reset();
        },
      },
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn btn-yellow">
          <PlusIcon />
          Upload Photo
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        {/*
          Not Radix's Dialog.Overlay: its scroll lock injects a <style> element, which
          the vault's CSP (no inline styles) refuses with a console error. The
          stylesheet locks the page's scroll while this backdrop is shown (index.css).
        */}
        <div className="dialog-backdrop fixed inset-0 z-50 bg-black/70" aria-hidden="true" />
        <Dialog.Content
          className="panel fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 p-5"
          onInteractOutside={(event) => {
            if (upload.isPending) event.preventDefault();
          }}
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="comic-heading text-xl text-hero-cyan">UPLOAD PHOTO</Dialog.Title>
            <Dialog.Close asChild>
              <button
                type="button"
                className="-m-1 rounded p-1 text-lg text-muted hover:text-ink disabled:opacity-50"
                aria-label="Close"
                disabled={upload.isPending}
              >
                <CloseIcon />
              </button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-muted">
            One image at a time: JPEG, PNG, GIF or WebP, at most {PHOTO_MAX_MB} MB ({PHOTO_MAX_BYTES.toLocaleString('en-US')} bytes).
          </Dialog.Description>

          <div className="mt-4">
            <label className="label" htmlFor={inputId}>
              Image file
            </label>
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              accept={PHOTO_CONTENT_TYPES.join(',')}
              onChange={onChoose}
              disabled={upload.isPending}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              className="field w-full text-sm file:mr-3 file:rounded file:border-0 file:bg-hero-cyan file:px-3 file:py-1 file:font-semibold file:text-black"
            />
          </div>

          {problem ? (
            <p id={problemId} role="alert" className="mt-3 text-sm font-semibold text-hero-red">
              {problem}
            </p>
          ) : null}
          {file ? (
            <p className="mt-3 break-all text-sm text-ink">
              {file.name} <span className="text-muted">({formatBytes(file.size)})</span>
            </p>
          ) : null}

          <label className="mt-3 flex items-center gap-2 text-sm text-ink">
            <input type="checkbox" checked={keepLocation} onChange={(event) => setKeepLocation(event.target.checked)} disabled={upload.isPending} />
            Keep location data
          </label>

          {upload.isPending ? (
            <div className="mt-4">
              {/* A <progress>, drawn by the stylesheet: an inline width would be refused by the CSP (no inline styles). */}
              <progress className="vault-progress" aria-label="Upload progress" max={100} value={progress} aria-valuenow={progress} />
              <p className="mt-1 text-right font-mono text-xs text-muted">{progress}%</p>
            </div>
          ) : null}

          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-ghost" disabled={upload.isPending}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="btn btn-red" onClick={start} disabled={!file || upload.isPending}>
              {upload.isPending ? 'Uploading...' : 'Upload'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
