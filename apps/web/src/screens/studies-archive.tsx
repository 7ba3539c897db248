import { ScreenFrame } from '../components/screen-frame';

/** Placeholder frame; a later issue completes this screen. */
export default function StudiesArchiveScreen() {
  return (
    <ScreenFrame title="STUDIES ARCHIVE" subtitle="Completed studies by month">
      <div className="panel p-6">
        <p className="text-muted">This section is coming online.</p>
      </div>
    </ScreenFrame>
  );
}
