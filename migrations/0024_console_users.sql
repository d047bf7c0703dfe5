-- reserved for issue work in progress; replaced by its migration
select 1;
