-- Spec aliases (issue 37; migration 0011 of the plan, numbered 0010 here
-- until 0010 lands): the Version each alias names, an optional
-- canary Version taking canary_percent of new Runs, and every move.
CREATE TABLE spec_aliases (
	tenant         TEXT NOT NULL,
	spec           TEXT COLLATE "C" NOT NULL,
	name           TEXT COLLATE "C" NOT NULL,
	version        TEXT NOT NULL,
	canary         TEXT NOT NULL DEFAULT '',
	canary_percent INTEGER NOT NULL DEFAULT 0,
	revision       BIGINT NOT NULL,
	update_time    BIGINT NOT NULL,
	updated_by     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, spec, name)
);

CREATE TABLE spec_alias_moves (
	seq          BIGSERIAL PRIMARY KEY,
	tenant       TEXT NOT NULL,
	spec         TEXT COLLATE "C" NOT NULL,
	name         TEXT COLLATE "C" NOT NULL,
	revision     BIGINT NOT NULL,
	time         BIGINT NOT NULL,
	subject      TEXT NOT NULL DEFAULT '',
	from_version TEXT NOT NULL DEFAULT '',
	from_canary  TEXT NOT NULL DEFAULT '',
	from_percent INTEGER NOT NULL DEFAULT 0,
	to_version   TEXT NOT NULL DEFAULT '',
	to_canary    TEXT NOT NULL DEFAULT '',
	to_percent   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spec_alias_moves_alias ON spec_alias_moves (tenant, spec, name, seq);
