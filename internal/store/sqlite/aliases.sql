-- Spec aliases (issue 37): the Version each alias names, an optional
-- canary Version taking canary_percent of new Runs, and every move.
CREATE TABLE spec_aliases (
	tenant         TEXT NOT NULL,
	spec           TEXT NOT NULL,
	name           TEXT NOT NULL,
	version        TEXT NOT NULL,
	canary         TEXT NOT NULL DEFAULT '',
	canary_percent INTEGER NOT NULL DEFAULT 0,
	revision       INTEGER NOT NULL,
	update_time    INTEGER NOT NULL,
	updated_by     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, spec, name)
) WITHOUT ROWID;

-- A deleted and recreated alias counts its revisions from 1 again: moves
-- are ordered by seq.
CREATE TABLE spec_alias_moves (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT,
	tenant       TEXT NOT NULL,
	spec         TEXT NOT NULL,
	name         TEXT NOT NULL,
	revision     INTEGER NOT NULL,
	time         INTEGER NOT NULL,
	subject      TEXT NOT NULL DEFAULT '',
	from_version TEXT NOT NULL DEFAULT '',
	from_canary  TEXT NOT NULL DEFAULT '',
	from_percent INTEGER NOT NULL DEFAULT 0,
	to_version   TEXT NOT NULL DEFAULT '',
	to_canary    TEXT NOT NULL DEFAULT '',
	to_percent   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spec_alias_moves_alias ON spec_alias_moves (tenant, spec, name, seq);
