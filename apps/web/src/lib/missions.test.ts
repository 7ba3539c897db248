import { describe, expect, it } from 'vitest';
import { BUILT_IN_MISSIONS, missionPool, pickNextMission, type Mission } from './missions';
import { isInCustomPool, missionBody } from './activities';

const pool = (size: number): Mission[] => Array.from({ length: size }, (_, i) => ({ title: `Mission ${i + 1}`, description: `Do thing ${i + 1}.` }));

/** A seeded generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the built-in missions', () => {
  it('are exactly 29, each with a distinct title and a one- or two-sentence description', () => {
    expect(BUILT_IN_MISSIONS).toHaveLength(29);
    const titles = BUILT_IN_MISSIONS.map((m) => m.title);
    expect(new Set(titles).size).toBe(29);
    for (const mission of BUILT_IN_MISSIONS) {
      expect(mission.title.trim()).toBe(mission.title);
      expect(mission.title.length).toBeGreaterThan(3);
      const sentences = (mission.description ?? '').split(/(?<=[.!?])\s+/).filter(Boolean);
      expect(sentences.length, mission.title).toBeGreaterThanOrEqual(1);
      expect(sentences.length, mission.title).toBeLessThanOrEqual(2);
    }
  });
});

describe('pickNextMission', () => {
  it.each([2, 30])('never repeats the current mission over 1,000 generations (pool of %i)', (size) => {
    const missions = pool(size);
    const random = seeded(size);
    let current: Mission = missions[0]!;
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const next = pickNextMission(missions, current, random)!;
      expect(next.title).not.toBe(current.title);
      seen.add(next.title);
      current = next;
    }
    // And it really is random over the whole pool.
    expect(seen.size).toBe(size);
  });

  it('never repeats the current one with Math.random either', () => {
    const missions = pool(30);
    let current = missions[5]!;
    for (let i = 0; i < 1000; i++) {
      const next = pickNextMission(missions, current)!;
      expect(next).not.toBe(current);
      current = next;
    }
  });

  it('returns the only mission of a pool of one', () => {
    const only = pool(1);
    expect(pickNextMission(only, only[0])).toBe(only[0]);
    expect(pickNextMission(only, null)).toBe(only[0]);
    expect(pickNextMission(only, only[0], () => 0.999999)).toBe(only[0]);
  });

  it('picks from the whole pool without a current mission, and null from an empty pool', () => {
    const missions = pool(3);
    expect(pickNextMission(missions, null, () => 0)).toBe(missions[0]);
    expect(pickNextMission(missions, undefined, () => 0.99)).toBe(missions[2]);
    expect(pickNextMission([], null)).toBeNull();
  });

  it('stays in range even for a random() of exactly 1', () => {
    const missions = pool(4);
    expect(pickNextMission(missions, missions[0], () => 1)).toBe(missions[3]);
  });

  it('compares by title, so a saved copy of the current mission does not count as another one', () => {
    const current = { title: 'Alpha' };
    expect(pickNextMission([{ title: 'Alpha' }, { title: ' Alpha ' }, { title: 'Beta' }], current, () => 0)).toEqual({
      title: 'Beta',
    });
  });
});

describe('missionPool', () => {
  it('is the built-ins plus the custom missions, without counting a saved built-in twice', () => {
    const custom = [{ title: BUILT_IN_MISSIONS[3]!.title }, { title: 'Learn three knots', description: 'Bowline first.' }];
    const result = missionPool(custom);
    expect(result).toHaveLength(30);
    expect(result.at(-1)).toEqual(custom[1]);
    expect(missionPool()).toHaveLength(29);
  });
});

describe('custom mission requests', () => {
  it('need a trimmed title and send a blank description as absent', () => {
    expect(missionBody('   ')).toBeNull();
    expect(missionBody(' Knots ', '   ')).toEqual({ title: 'Knots' });
    expect(missionBody('Knots', null)).toEqual({ title: 'Knots' });
    expect(missionBody('Knots', ' Bowline ')).toEqual({ title: 'Knots', description: 'Bowline' });
  });

  it('know whether a title is already in the custom pool', () => {
    const custom = [{ id: '1', title: 'Knots' }];
    expect(isInCustomPool(custom, 'Knots')).toBe(true);
    expect(isInCustomPool(custom, ' Knots ')).toBe(true);
    expect(isInCustomPool(custom, 'Ropes')).toBe(false);
    expect(isInCustomPool(undefined, 'Knots')).toBe(false);
  });
});
