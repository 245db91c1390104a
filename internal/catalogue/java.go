package catalogue

import (
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// JavaConstantsPath is where JavaConstants goes, from the repository root.
const JavaConstantsPath = "clients/java/src/dev/runsvc/client/Reasons.java"

// JavaConstants renders the Java client's Reasons class: a constant per
// reason, the list of them and the retryable ones.
func JavaConstants(doc Document) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\npackage dev.runsvc.client;\n\nimport java.util.List;\nimport java.util.Set;\n\n", header)
	b.WriteString("/** The reasons of runsvc's errors (docs/errors.md): ErrorInfo's {@code reason}. */\npublic final class Reasons {\n  private Reasons() {}\n\n")
	fmt.Fprintf(&b, "  /** The error catalogue's version; the jar's too. */\n  public static final String CATALOGUE_VERSION = %q;\n\n", doc.Version)
	fmt.Fprintf(&b, "  /** The ErrorInfo domain of a runsvc server that configures none. */\n  public static final String DEFAULT_DOMAIN = %q;\n\n", doc.Domain)
	for _, e := range doc.Reasons {
		fmt.Fprintf(&b, "  /** %s */\n  public static final String %s = %q;\n\n", javadoc(e.Description), e.Reason, e.Reason)
	}
	for _, r := range doc.CallerReasons {
		fmt.Fprintf(&b, "  /** The caller's own cancellation or deadline. */\n  public static final String %s = %q;\n\n", r, r)
	}
	b.WriteString("  /** Every reason of the catalogue, in its order. */\n  public static final List<String> ALL =\n      List.of(\n")
	writeJavaList(&b, doc.Reasons, func(errdetails.Entry) bool { return true })
	b.WriteString("\n  /** Reasons that can carry RetryInfo (always or per error). */\n  public static final Set<String> RETRYABLE =\n      Set.of(\n")
	writeJavaList(&b, doc.Reasons, func(e errdetails.Entry) bool { return e.Retryable != "no" })
	b.WriteString("}\n")
	return []byte(b.String())
}

// writeJavaList writes the names of the entries keep holds as the
// arguments of List.of or Set.of.
func writeJavaList(b *strings.Builder, entries []errdetails.Entry, keep func(errdetails.Entry) bool) {
	var names []string
	for _, e := range entries {
		if keep(e) {
			names = append(names, "          "+e.Reason)
		}
	}
	b.WriteString(strings.Join(names, ",\n"))
	b.WriteString(");\n")
}

// javadoc makes text safe inside a /** */ comment.
func javadoc(text string) string {
	r := strings.NewReplacer("*/", "*&#47;", "&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "&#64;")
	return r.Replace(text)
}
