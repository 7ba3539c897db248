-- Every vault starts with the same balance (spec 2.12); the row exists from the start.
INSERT INTO "planner"."balance" ("id", "amount") VALUES (1, 1000000000) ON CONFLICT ("id") DO NOTHING;
