import type { Activity } from '@vault/contracts';

/**
 * A mission of the generator (spec section 2.7): built-in or one of the
 * owner's custom missions, so it has a custom mission's shape, without the id.
 */
export type Mission = Pick<Activity, 'title' | 'description'>;

/**
 * The built-in pool: 29 self-improvement missions (spec section 9), across
 * finance, reasoning, communication, fitness, first aid, self-awareness, focus,
 * recovery and learning. Each can be done in a day.
 */
export const BUILT_IN_MISSIONS: readonly Mission[] = [
  // Finance
  {
    title: 'Operation Budget Recon',
    description: 'List every expense from the last seven days and sort it into needs and wants. Pick one want to cut this week and move that money to savings.',
  },
  {
    title: 'Emergency Fund Fortification',
    description:
      'Add up one month of essential costs: rent, food, utilities and transport. Set up an automatic transfer, however small, towards three months of that figure.',
  },
  {
    title: 'Subscription Purge',
    description: 'Scan your last two bank statements for recurring charges. Cancel every subscription you have not used in the past 30 days.',
  },
  {
    title: 'Compound Interest Briefing',
    description: 'Work out what 100 a month becomes after 20 years at 7% a year. Then find out what your own savings or pension actually earns.',
  },
  {
    title: 'Debt Takedown Plan',
    description:
      'List every debt with its balance and interest rate. Choose avalanche (highest rate first) or snowball (smallest balance first) and schedule the next extra payment.',
  },
  // Reasoning
  {
    title: 'Steelman Protocol',
    description:
      'Pick a view you disagree with and write the strongest case for it, in words its supporters would accept. Note one point that genuinely gave you pause.',
  },
  {
    title: 'Fermi Estimation Drill',
    description:
      'Estimate something you do not know, such as how many piano tuners work in your city, by breaking it into smaller guesses. Then look up the real figure and compare.',
  },
  {
    title: 'Bias Interception',
    description: 'Review a recent decision for confirmation bias, sunk cost or anchoring. Write down what you would decide today with fresh eyes.',
  },
  {
    title: 'Pre-Mortem Briefing',
    description:
      'Imagine your biggest current project has failed six months from now. List the three likeliest causes and one step that prevents each, starting today.',
  },
  {
    title: 'Source Verification Op',
    description: 'Take one claim you read or heard today and trace it back to its original source. Judge the evidence before you repeat it to anyone.',
  },
  // Communication
  {
    title: 'Active Listening Op',
    description:
      'In your next conversation, sum up what the other person said before giving your own view. Ask at least one open question that starts with "what" or "how".',
  },
  {
    title: 'Two-Minute Briefing',
    description: 'Explain a topic you know well in under two minutes, to a friend or a voice recorder. On the second take, cut every filler word.',
  },
  {
    title: 'The Difficult Conversation',
    description: 'Write down a conversation you have been avoiding: the facts, how you feel, and the one thing you will ask for. Then put a date on having it.',
  },
  {
    title: 'Gratitude Transmission',
    description: 'Send a thank-you message to someone who helped you, naming exactly what they did and the difference it made.',
  },
  // Fitness
  {
    title: 'Endurance Run',
    description: 'Run, cycle or swim for 30 minutes at a pace where you could talk but not sing. Log the distance so the next run has a record to beat.',
  },
  {
    title: 'Bodyweight Circuit',
    description: 'Complete four rounds of 10 push-ups, 15 squats, 10 lunges per leg and a 30-second plank, resting one minute between rounds.',
  },
  {
    title: 'Mobility Maintenance',
    description: 'Spend 15 minutes stretching your hips, hamstrings, shoulders and upper back. Hold each stretch for 30 seconds and breathe slowly.',
  },
  {
    title: 'Step Count Patrol',
    description: 'Reach 10,000 steps today: take calls on foot, use the stairs and walk for ten minutes after each meal.',
  },
  // First aid
  {
    title: 'CPR Refresher',
    description:
      'Review hands-only CPR: call emergency services, then push hard and fast in the centre of the chest, 100 to 120 times a minute. Find out where the nearest defibrillator (AED) is.',
  },
  {
    title: 'Recovery Position Drill',
    description:
      'Learn the recovery position for someone who is unconscious but breathing, and practise it with a friend. Know when not to move a person, such as after a fall.',
  },
  {
    title: 'Choking Response Protocol',
    description:
      'Learn the response to a choking adult: up to five firm back blows, then up to five abdominal thrusts, repeated until it clears, and call for help if it does not.',
  },
  {
    title: 'Med Kit Inspection',
    description:
      'Check your first aid kit: replace anything expired and make sure it holds plasters, sterile dressings, gloves, tape and pain relief. Keep a small one in your bag or car.',
  },
  // Self-awareness
  {
    title: 'Mind Debrief',
    description: 'Write for ten minutes about what drained you and what energised you today. Look for one pattern you could change tomorrow.',
  },
  {
    title: 'Values Audit',
    description:
      "List your five most important values, then hold last week's calendar up against them. Note where your time actually went and what you would move.",
  },
  {
    title: 'Trigger Mapping',
    description:
      'Recall the last time you reacted more strongly than you wanted to. Name the trigger, the story you told yourself, and a calmer response for next time.',
  },
  {
    title: 'Digital Silence Hour',
    description: 'Spend one hour with every screen off. Notice each urge to check your phone and the feeling that comes just before it.',
  },
  // Focus, recovery and learning
  {
    title: 'Ten-Minute Stillness',
    description: 'Sit quietly and follow your breath for ten minutes. Each time your mind wanders, notice it without judgement and come back to the breath.',
  },
  {
    title: 'Sleep Discipline Op',
    description:
      'Set a fixed bedtime tonight and put screens away an hour before it. Keep the room cool, dark and quiet, and get up at the same time tomorrow.',
  },
  {
    title: 'Skill Acquisition Sprint',
    description:
      'Spend 25 focused minutes on a skill you want, such as a language, an instrument or coding, with notifications off. Write down one thing you can do now that you could not before.',
  },
];

/** Titles are compared trimmed, as the server stores them. */
export function sameTitle(a: string, b: string): boolean {
  return a.trim() === b.trim();
}

/**
 * The generator's pool: the built-in missions plus the owner's custom ones. A
 * custom mission saved from a built-in one (same title) is not counted twice.
 */
export function missionPool(custom: readonly Mission[] = []): Mission[] {
  const pool: Mission[] = [...BUILT_IN_MISSIONS];
  for (const mission of custom) {
    if (!pool.some((m) => sameTitle(m.title, mission.title))) pool.push(mission);
  }
  return pool;
}

/**
 * A random mission from the pool that is not the current one, whenever the pool
 * holds another (spec section 5: the generator never repeats the current
 * mission). A pool of one gives that one; an empty pool gives null.
 */
export function pickNextMission<T extends Mission>(pool: readonly T[], current: Mission | null | undefined, random: () => number = Math.random): T | null {
  const others = current ? pool.filter((m) => !sameTitle(m.title, current.title)) : [...pool];
  const candidates = others.length > 0 ? others : pool;
  if (candidates.length === 0) return null;
  const index = Math.min(candidates.length - 1, Math.max(0, Math.floor(random() * candidates.length)));
  return candidates[index]!;
}
