import type { Table } from 'drizzle-orm';
import { activities } from './activities.table.js';
import { balance } from './balance.table.js';
import { scheduleItems } from './schedule-items.table.js';
import { studies } from './studies.table.js';
import { targets } from './targets.table.js';
import { weeklyTemplates } from './weekly-templates.table.js';

/** Every planner table, children first: what an erase and a failed restore empty. */
export const PLANNER_TABLES: readonly Table[] = [scheduleItems, weeklyTemplates, targets, activities, studies, balance];
