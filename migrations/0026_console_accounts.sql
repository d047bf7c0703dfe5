-- Console users given accounts (filled by issue 29 work).
SELECT 1;
