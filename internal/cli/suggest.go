package cli

import (
	"flag"
	"strings"
)

// levenshtein is the edit distance between a and b: how many single-rune
// insertions, deletions and substitutions turn one into the other.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// nearest is the candidate closest to word, if one is close enough to be
// what was meant: at most 2 edits, or a third of word's length. Ties go to
// the first candidate.
func nearest(word string, candidates []string) (string, bool) {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := levenshtein(strings.ToLower(word), c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len([]rune(word))/3) {
		return "", false
	}
	return best, true
}

// unknownCommand is the usage error for a command word that is not in the
// table: group is "" for the first word. It suggests the nearest command,
// looking in every group when the word is a command of another one.
func unknownCommand(group, word string) error {
	full := strings.TrimSpace(group + " " + word)
	var candidates []string
	if group == "" {
		// serve, version and keys are the binary's, not the client's,
		// but as near a miss.
		candidates = append(sortedKeys(commands), binaryCommands...)
		for _, g := range sortedKeys(commands) {
			for _, c := range sortedKeys(commands[g]) {
				if c == word {
					return usagef("unknown command %q; did you mean '%s %s'?", full, g, c)
				}
			}
		}
	} else {
		for _, c := range sortedKeys(commands[group]) {
			candidates = append(candidates, group+" "+c)
		}
	}
	if s, ok := nearest(full, candidates); ok {
		return usagef("unknown command %q; did you mean '%s'?", full, s)
	}
	return usagef("unknown command %q", full)
}

// flagError turns the flag package's error into a usage error, suggesting
// the nearest flag of fs for a flag it does not define.
func flagError(fs *flag.FlagSet, err error) error {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return usagef("%v", err)
	}
	name := strings.TrimLeft(strings.TrimPrefix(msg, undefined), "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s, ok := nearest(name, names); ok {
		return usagef("unknown flag --%s; did you mean --%s?", name, s)
	}
	return usagef("unknown flag --%s", name)
}
