package console

import (
	"context"
	"net/http"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/catalogue"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// specsView is the Specs list.
type specsView struct {
	Specs []*runsvcv1.Spec
	Next  string
}

// specsPage lists the newest Version of every Spec.
func (c *Console) specsPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	resp, err := c.specs.ListSpecs(ctx, &runsvcv1.ListSpecsRequest{PageSize: listPageSize, PageToken: r.URL.Query().Get("page")})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	v := specsView{Specs: resp.GetSpecs()}
	if tok := resp.GetNextPageToken(); tok != "" {
		v.Next = "/specs?page=" + tok
	}
	c.render(w, r, s, http.StatusOK, "specs.html", "Specs", v)
}

// specView is one Spec: its Versions, newest first, one of them shown,
// and the diff between two when asked.
type specView struct {
	Name     string
	Versions []*runsvcv1.Spec
	Shown    *runsvcv1.Spec
	JSON     string
	A, B     string
	Diff     []diffLine
	// Rollouts are the Spec's aliases, each with its sides compared.
	Rollouts []*runsvcv1.GetRolloutResponse
}

// specPage shows a Spec's Versions; ?a=&b= diffs two of them.
func (c *Console) specPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	name, q := r.PathValue("name"), r.URL.Query()
	v := specView{Name: name, A: q.Get("a"), B: q.Get("b")}
	tok := ""
	for {
		resp, err := c.specs.ListSpecs(ctx, &runsvcv1.ListSpecsRequest{Name: name, PageSize: 500, PageToken: tok})
		if err != nil {
			c.rpcError(w, r, s, err)
			return
		}
		v.Versions = append(v.Versions, resp.GetSpecs()...)
		if tok = resp.GetNextPageToken(); tok == "" || len(v.Versions) >= 5000 {
			break
		}
	}
	got, err := c.specs.GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: name, Version: q.Get("version")})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	v.Shown, v.JSON = got.GetSpec(), specText(got.GetSpec())
	if v.A != "" && v.B != "" {
		a, err := c.specs.GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: name, Version: v.A})
		if err != nil {
			c.rpcError(w, r, s, err)
			return
		}
		b, err := c.specs.GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: name, Version: v.B})
		if err != nil {
			c.rpcError(w, r, s, err)
			return
		}
		v.Diff = diffLines(specText(a.GetSpec()), specText(b.GetSpec()))
	}
	v.Rollouts = c.rollouts(ctx, name)
	c.render(w, r, s, http.StatusOK, "spec.html", "Spec "+name, v)
}

// rollouts are a Spec's aliases with their sides compared; none when the
// server keeps no aliases or a read fails (the page shows the rest).
func (c *Console) rollouts(ctx context.Context, name string) []*runsvcv1.GetRolloutResponse {
	list, err := c.aliases.ListAliases(ctx, &runsvcv1.ListAliasesRequest{Spec: name})
	if err != nil {
		return nil
	}
	var out []*runsvcv1.GetRolloutResponse
	for _, a := range list.GetAliases() {
		ro, err := c.aliases.GetRollout(ctx, &runsvcv1.GetRolloutRequest{Spec: name, Alias: a.GetAlias()})
		if err != nil {
			ro = &runsvcv1.GetRolloutResponse{Alias: a}
		}
		out = append(out, ro)
	}
	return out
}

// specText is a Spec as indented JSON, without what differs between any
// two Versions (the version hash and publish time).
func specText(sp *runsvcv1.Spec) string {
	c := proto.Clone(sp).(*runsvcv1.Spec)
	c.Version, c.CreateTime = "", nil
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(c)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// diffLine is one line of a diff: Op is " ", "-" or "+".
type diffLine struct{ Op, Text string }

// diffLines is the line diff from a to b by longest common subsequence.
func diffLines(a, b string) []diffLine {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case x[i] == y[j]:
			out = append(out, diffLine{" ", x[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, diffLine{"-", x[i]})
			i++
		default:
			out = append(out, diffLine{"+", y[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffLine{"-", x[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffLine{"+", y[j]})
	}
	return out
}

// errorsView is the catalogue page.
type errorsView struct {
	Version string
	Domain  string
	Reasons []errdetails.Entry
}

// errorsPage is the error catalogue: every reason of the one table.
func (c *Console) errorsPage(w http.ResponseWriter, r *http.Request, s *session) {
	doc := catalogue.Load()
	c.render(w, r, s, http.StatusOK, "errors.html", "Error catalogue", errorsView{Version: doc.Version, Domain: doc.Domain, Reasons: doc.Reasons})
}
