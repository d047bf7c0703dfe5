-- Worker heartbeats of the fleet (filled by issue 29 work).
SELECT 1;
