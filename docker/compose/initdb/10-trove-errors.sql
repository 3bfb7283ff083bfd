-- The second database; the image's POSTGRES_DB makes the first (trove_memory).
CREATE DATABASE trove_errors;
