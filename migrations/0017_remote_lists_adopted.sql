-- Placeholder: filled by the work of issue 24.
SELECT 1;
