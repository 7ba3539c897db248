import { useQuery } from '@tanstack/react-query';

/** A custom mission of the owner's (spec section 3); the generator draws from these and the built-in pool. */
export interface CustomMission {
  id: string;
  title: string;
  description?: string | null;
}

export const ACTIVITIES_KEY = ['/api/activities'] as const;

export function useCustomMissions() {
  return useQuery<CustomMission[]>({ queryKey: ACTIVITIES_KEY });
}
