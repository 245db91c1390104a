package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"gopkg.in/yaml.v3"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// readInput reads a file, or stdin for "-".
func (a *app) readInput(name string) ([]byte, error) {
	if name == "-" {
		b, err := io.ReadAll(a.stdin)
		if err != nil {
			return nil, usagef("reading stdin: %v", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return b, nil
}

// parseSpec reads a Spec written as YAML or JSON (by the file's extension;
// YAML for stdin, which also reads JSON) with protojson's field names,
// camelCase or snake_case. Tool kinds may be written `client`, `worker`,
// `http`, `mcp` or `builtin`, durations as "5m" or "1h30m"; a document
// holding only `spec:` is the Spec inside it, as in a PublishSpecRequest.
func parseSpec(name string, data []byte) (*runsvcv1.Spec, error) {
	var doc any
	if strings.EqualFold(filepath.Ext(name), ".json") {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, usagef("%s is not valid JSON: %v", name, err)
		}
	} else if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, usagef("%s is not valid YAML: %v", name, err)
	}
	doc = plainJSON(doc)
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, usagef("%s does not hold a Spec: expected an object with name, model, tools, ...", name)
	}
	if inner, ok := obj["spec"].(map[string]any); ok && len(obj) == 1 {
		obj = inner
	}
	if err := friendly((&runsvcv1.Spec{}).ProtoReflect().Descriptor(), obj, ""); err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	sp := &runsvcv1.Spec{}
	if err := protojson.Unmarshal(b, sp); err != nil {
		return nil, usagef("%s is not a valid Spec: %s", name, protojsonProblem(err))
	}
	return sp, nil
}

// plainJSON turns what the YAML decoder produced into values encoding/json
// writes as the same JSON: maps with string keys, times as RFC 3339.
func plainJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = plainJSON(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = plainJSON(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = plainJSON(e)
		}
		return v
	case time.Time:
		return v.Format(time.RFC3339Nano)
	default:
		return v
	}
}

// friendly rewrites what protojson would refuse but a person writes, in
// the JSON document of a message: durations as Go writes them ("5m",
// "1h30m", "250ms") become protojson's seconds ("300s"), and enum values
// may drop their prefix and be in any case (tool kind `client` is
// TOOL_KIND_CLIENT). Unknown fields are reported with their path and the
// nearest field's name, as unknown flags are.
func friendly(md protoreflect.MessageDescriptor, obj map[string]any, path string) error {
	for key, val := range obj {
		fd := md.Fields().ByJSONName(key)
		if fd == nil {
			fd = md.Fields().ByName(protoreflect.Name(key))
		}
		at := joinPath(path, key)
		if fd == nil {
			return unknownField(md, key, at)
		}
		if fd.IsMap() {
			continue
		}
		if list, ok := val.([]any); ok && fd.IsList() {
			for i, e := range list {
				v, err := friendlyValue(fd, e, fmt.Sprintf("%s[%d]", at, i))
				if err != nil {
					return err
				}
				list[i] = v
			}
			continue
		}
		v, err := friendlyValue(fd, val, at)
		if err != nil {
			return err
		}
		obj[key] = v
	}
	return nil
}

// unknownField is the error for a key md has no field for, suggesting the
// nearest field in the key's own style: snake_case when the key has an
// underscore, camelCase otherwise.
func unknownField(md protoreflect.MessageDescriptor, key, at string) error {
	fields := md.Fields()
	names := make([]string, 0, fields.Len())
	byLower := make(map[string]string, fields.Len())
	for i := 0; i < fields.Len(); i++ {
		name := fields.Get(i).JSONName()
		if strings.Contains(key, "_") {
			name = string(fields.Get(i).Name())
		}
		names = append(names, strings.ToLower(name))
		byLower[strings.ToLower(name)] = name
	}
	if near, ok := nearest(key, names); ok {
		return fmt.Errorf("%s: unknown field; did you mean %s?", at, byLower[near])
	}
	return fmt.Errorf("%s: unknown field", at)
}

func friendlyValue(fd protoreflect.FieldDescriptor, val any, path string) (any, error) {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		if s, ok := val.(string); ok {
			return friendlyEnum(fd.Enum(), s, path)
		}
	case protoreflect.MessageKind:
		md := fd.Message()
		switch {
		case md.FullName() == "google.protobuf.Duration":
			if s, ok := val.(string); ok {
				return friendlyDuration(s, path)
			}
		case md.FullName().Parent() == "google.protobuf":
			// Struct, Value, Timestamp...: protojson's own forms.
		default:
			if obj, ok := val.(map[string]any); ok {
				return obj, friendly(md, obj, path)
			}
		}
	}
	return val, nil
}

// friendlyEnum accepts an enum value by its name, or by the name without
// the prefix all values share, in any case.
func friendlyEnum(ed protoreflect.EnumDescriptor, s, path string) (string, error) {
	values := ed.Values()
	if values.ByName(protoreflect.Name(s)) != nil {
		return s, nil
	}
	prefix := enumPrefix(ed)
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, prefix) {
		name = prefix + name
	}
	if v := values.ByName(protoreflect.Name(name)); v != nil && v.Number() != 0 {
		return name, nil
	}
	var names []string
	for i := 0; i < values.Len(); i++ {
		if v := values.Get(i); v.Number() != 0 {
			names = append(names, strings.ToLower(strings.TrimPrefix(string(v.Name()), prefix)))
		}
	}
	list := strings.Join(names, ", ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[:i] + " or " + list[i+2:]
	}
	return "", fmt.Errorf("%s: unknown value %q: use %s", path, s, list)
}

// enumPrefix is the prefix every value of an enum starts with:
// "TOOL_KIND_".
func enumPrefix(ed protoreflect.EnumDescriptor) string {
	values := ed.Values()
	if values.Len() == 0 {
		return ""
	}
	prefix := string(values.Get(0).Name())
	for i := 1; i < values.Len(); i++ {
		name := string(values.Get(i).Name())
		for !strings.HasPrefix(name, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix[:strings.LastIndex(prefix, "_")+1]
}

// friendlyDuration accepts "30s" and "1.5s" as protojson does, and
// anything time.ParseDuration reads.
func friendlyDuration(s, path string) (string, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%s: %q is not a duration: write it like 30s, 5m or 1h30m", path, s)
	}
	return protoDuration(d), nil
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var protojsonPosition = regexp.MustCompile(`^proto:[\s\x{00a0}]*(\(line \d+:\d+\):[\s\x{00a0}]*)?`)

// protojsonProblem drops protojson's prefix and position, which point
// into the re-encoded document rather than the user's file.
func protojsonProblem(err error) string {
	return protojsonPosition.ReplaceAllString(err.Error(), "")
}
