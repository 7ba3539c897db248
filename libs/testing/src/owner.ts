/** The owner every integration stack is configured with, and every behaviour suite signs in as. */
export const TEST_OWNER = { name: 'Agent Nine', username: 'agent', password: 'correct-horse-battery-staple' } as const;
