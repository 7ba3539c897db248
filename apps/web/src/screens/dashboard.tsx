import { ScreenFrame } from '../components/screen-frame';
import { ShieldIcon } from '../components/icons';
import { StatRow } from '../components/dashboard/stat-row';
import { MissionScheduleCard } from '../components/dashboard/mission-schedule';
import { TargetsCard } from '../components/dashboard/targets-card';
import { IntelligenceLogCard } from '../components/dashboard/intelligence-log';
import { StudiesCard } from '../components/dashboard/studies-card';
import { MissionGeneratorCard } from '../components/dashboard/mission-generator';
import { MissionLogCard } from '../components/dashboard/mission-log';
import { OnThisDay } from '../components/on-this-day';

/** The command center (spec section 2.5). */
export default function DashboardScreen() {
  return (
    <ScreenFrame title="COMMAND CENTER" subtitle="Daily mission control" icon={<ShieldIcon />}>
      <StatRow />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <MissionScheduleCard />
        <TargetsCard />
        <IntelligenceLogCard />
        <OnThisDay />
        <StudiesCard />
        <MissionGeneratorCard />
        <MissionLogCard />
      </div>
    </ScreenFrame>
  );
}
