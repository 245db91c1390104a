package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"google.golang.org/protobuf/encoding/protojson"
	"gopkg.in/yaml.v3"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

func (a *app) specPublish(ctx context.Context, args []string) error {
	fs := a.flags()
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	data, err := a.readInput(pos[0])
	if err != nil {
		return err
	}
	sp, err := parseSpec(pos[0], data)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.specs.PublishSpec, &runsvcv1.PublishSpecRequest{Spec: sp})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	s := resp.GetSpec()
	if resp.GetCreated() {
		fmt.Fprintf(a.stdout, "published spec %s, version %s (created)\n", s.GetName(), s.GetVersion())
	} else {
		fmt.Fprintf(a.stdout, "published spec %s, version %s (unchanged: an identical version already existed)\n", s.GetName(), s.GetVersion())
	}
	return nil
}

func (a *app) specGet(ctx context.Context, args []string) error {
	fs := a.flags()
	version := fs.String("version", "", "the `VERSION` to get; the newest when empty")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.specs.GetSpec, &runsvcv1.GetSpecRequest{Name: pos[0], Version: *version})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	out, err := specYAML(resp.GetSpec())
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(out)
	return err
}

// specYAML writes a Spec as YAML in field order, in the form `spec
// publish` reads back (`version` and `createTime` are output only and
// ignored when publishing).
func specYAML(sp *runsvcv1.Spec) ([]byte, error) {
	b, err := protojson.Marshal(sp)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	blockStyle(&doc)
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return out.Bytes(), enc.Close()
}

// blockStyle drops the flow style and quotes JSON brought in, so the YAML
// encoder picks the plainest form.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

func (a *app) specList(ctx context.Context, args []string) error {
	fs := a.flags()
	limit := fs.Int("limit", 100, "list at most `N` Specs; 0 means all")
	pos, err := a.parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *limit < 0 {
		return usagef("--limit must not be negative")
	}
	if err := a.connect(); err != nil {
		return err
	}
	req := &runsvcv1.ListSpecsRequest{}
	if len(pos) == 1 {
		req.Name = pos[0]
	}
	specs, next, err := collect(*limit, func(size int32, token string) ([]*runsvcv1.Spec, string, error) {
		req.PageSize, req.PageToken = size, token
		resp, err := unary(ctx, a, 0, a.specs.ListSpecs, req)
		return resp.GetSpecs(), resp.GetNextPageToken(), err
	})
	if err != nil {
		return err
	}
	all := &runsvcv1.ListSpecsResponse{Specs: specs, NextPageToken: next}
	if a.json {
		return a.printJSON(all)
	}
	if len(all.Specs) == 0 {
		fmt.Fprintln(a.stdout, "no specs")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tMODEL\tTOOLS\tPUBLISHED")
	for _, s := range all.Specs {
		model := s.GetModel().GetProvider()
		if m := s.GetModel().GetModel(); m != "" {
			model += "/" + m
		}
		var tools []string
		for _, t := range s.GetTools() {
			tools = append(tools, t.GetName())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.GetName(), s.GetVersion(), model, orDash(strings.Join(tools, ",")), s.GetCreateTime().AsTime().Local().Format("2006-01-02 15:04:05"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if all.NextPageToken != "" {
		fmt.Fprintf(a.stdout, "(more: raise --limit to see them)\n")
	}
	return nil
}

// collect fetches pages until the last, or until limit items (0: no
// limit), and returns them with the token of the page after them.
func collect[T any](limit int, fetch func(size int32, token string) ([]T, string, error)) ([]T, string, error) {
	const maxPage = 500
	var all []T
	token := ""
	for {
		size := int32(maxPage)
		if limit > 0 && limit-len(all) < maxPage {
			size = int32(limit - len(all))
		}
		page, next, err := fetch(size, token)
		if err != nil {
			return nil, "", err
		}
		all = append(all, page...)
		if next == "" || (limit > 0 && len(all) >= limit) {
			return all, next, nil
		}
		token = next
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
