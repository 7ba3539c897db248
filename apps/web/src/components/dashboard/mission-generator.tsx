import { useCustomMissions } from '../../lib/activities';
import { ShuffleIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/**
 * MISSION GENERATOR (spec section 2.7). This frame lists the owner's custom
 * missions; the generator itself (the built-in pool, GENERATE, saving and
 * deleting missions) belongs to the missions issue.
 */
export function MissionGeneratorCard() {
  const missions = useCustomMissions();

  return (
    <Panel title="MISSION GENERATOR" icon={<ShuffleIcon />} accent="yellow">
      <h3 className="comic-heading mb-3 text-sm text-hero-cyan">YOUR CUSTOM MISSIONS</h3>
      {missions.isPending ? (
        <CardLoading />
      ) : missions.isError ? (
        <LoadError error={missions.error} />
      ) : missions.data.length === 0 ? (
        <EmptyState>No custom missions yet</EmptyState>
      ) : (
        <ul className="max-h-48 space-y-2 overflow-y-auto pr-1">
          {missions.data.map((mission) => (
            <li key={mission.id} className="rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
              <p className="break-words font-semibold text-ink">{mission.title}</p>
              {mission.description ? <p className="mt-0.5 break-words text-sm text-muted">{mission.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
