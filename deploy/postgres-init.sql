-- Run once by the postgres image on an empty volume: the warehouse beside Prefect's database.
CREATE DATABASE warehouse OWNER filings;
