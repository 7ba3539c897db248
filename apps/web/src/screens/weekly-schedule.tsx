import { ScreenFrame } from '../components/screen-frame';

/** Placeholder frame; a later issue completes this screen. */
export default function WeeklyScheduleScreen() {
  return (
    <ScreenFrame title="WEEKLY SCHEDULE TEMPLATES" subtitle="Create different schedules for each day of the week">
      <div className="panel p-6">
        <p className="text-muted">This section is coming online.</p>
      </div>
    </ScreenFrame>
  );
}
