package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"
)

// This file exports the CLI's flag style to the binary's own commands
// (`runsvc serve`, `runsvc keys`), so that every command prints its help,
// reports an unknown flag and reads its environment variables the same way.

// FlagGroup is a titled group of flags in a command's help, e.g. "Store
// flags" holding --data, --store and --pool-size.
type FlagGroup struct {
	// Title heads the group, e.g. "Store flags".
	Title string
	// Names are the flags of the group, in the order they are printed.
	Names []string
}

// EnvName is the environment variable of a flag: prefix followed by the
// flag's name in upper case with dashes as underscores, so "lease-ttl"
// with prefix "RUNSVC_" is RUNSVC_LEASE_TTL.
func EnvName(prefix, flagName string) string {
	return prefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// SetFromEnv sets every flag of fs whose environment variable (EnvName
// with prefix) is set and not empty, so that flags given on the command
// line, parsed afterwards, override the environment. lookup is
// os.LookupEnv outside tests. A value the flag refuses is an error naming
// the variable.
func SetFromEnv(fs *flag.FlagSet, prefix string, lookup func(string) (string, bool)) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		name := EnvName(prefix, f.Name)
		v, ok := lookup(name)
		if !ok || v == "" {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			errs = append(errs, fmt.Errorf("invalid value %q for %s (--%s): %s", v, name, f.Name, valueHint(f, err)))
		}
	})
	return errors.Join(errs...)
}

// LookupEnv is os.LookupEnv, the lookup SetFromEnv takes outside tests.
var LookupEnv = os.LookupEnv

// ParseFlags parses args into fs in the CLI's way: fs prints nothing
// itself, -h and --help return flag.ErrHelp, an unknown flag is an error
// suggesting the nearest defined one ("unknown flag --lisen; did you mean
// --listen?"), and a bad value names the flag.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			return usagef("invalid value %q for --%s: %s", m[1], f.Name, valueHint(f, errors.New(m[3])))
		}
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag needs an argument: -"); ok {
		return usagef("--%s needs a value", name)
	}
	return flagError(fs, err)
}

// badValue matches the flag package's error for a value a flag refused.
var badValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([^:]+): (.*)$`)

// valueHint says what a flag wants in place of the flag package's bare
// "parse error".
func valueHint(f *flag.Flag, err error) string {
	g, ok := f.Value.(flag.Getter)
	if !ok || !strings.Contains(err.Error(), "parse error") {
		return err.Error()
	}
	switch g.Get().(type) {
	case time.Duration:
		return "want a duration such as 15s, 2m or 1h30m"
	case bool:
		return "want true or false"
	case int, int64, uint, uint64:
		return "want a whole number"
	case float64:
		return "want a number"
	}
	return err.Error()
}

// PrintFlagGroups writes the flags of fs in the CLI's help style, one
// group after another under its title; envPrefix, when not empty, adds each
// flag's environment variable to its line. Flags in no group are printed
// last under "Other flags".
func PrintFlagGroups(w io.Writer, fs *flag.FlagSet, envPrefix string, groups []FlagGroup) {
	seen := map[string]bool{}
	for _, g := range groups {
		var flags []*flag.Flag
		for _, n := range g.Names {
			if f := fs.Lookup(n); f != nil {
				flags, seen[n] = append(flags, f), true
			}
		}
		fmt.Fprintf(w, "\n%s:\n", g.Title)
		printFlags(w, flags, envPrefix)
	}
	var rest []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !seen[f.Name] {
			rest = append(rest, f)
		}
	})
	if len(rest) > 0 {
		fmt.Fprintf(w, "\nOther flags:\n")
		printFlags(w, rest, envPrefix)
	}
}

// Suggest is the candidate nearest to word, if one is close enough to be
// what was meant (the rule the CLI's "did you mean" hints use).
func Suggest(word string, candidates []string) (string, bool) {
	return nearest(word, candidates)
}

// binaryCommands are the top-level words outside the client's command
// table that a typo may have meant: the binary's own commands and the
// client's errors.
var binaryCommands = []string{"serve", "version", "keys", "errors", "help"}
