-- The balance to the cent (issue 13, finding 10). Every balance the previous
-- version kept is converted exactly, except sub-cent digits that only its
-- float bug could make (an amount like 1e-7 was accepted): those are cut off,
-- downwards, never rounded up, since the balance only ever goes down.
ALTER TABLE "planner"."balance" ALTER COLUMN "amount" SET DATA TYPE numeric(12, 2) USING trunc("amount", 2);
