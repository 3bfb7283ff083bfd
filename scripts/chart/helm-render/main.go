// helm-render renders a Helm chart's templates the way `helm template` does, for CI on machines
// where helm cannot be installed: Go text/template with the sprig functions plus Helm's own include,
// tpl, required, toYaml, fromYaml, toJson and lookup (always empty, as in `helm template`).
// Values: the chart's values.yaml deep-merged with each -f file in order. Subcharts are not rendered.
//
//	helm-render [-f values.yaml]... [--api-versions group/version]... [--name trove] [--namespace ns] CHART
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// APIVersions answers .Capabilities.APIVersions.Has "group/version" or "group/version/Kind".
type APIVersions []string

func (a APIVersions) Has(v string) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

var builtinAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "autoscaling/v2", "policy/v1", "networking.k8s.io/v1", "rbac.authorization.k8s.io/v1",
	"v1/Service", "v1/Secret", "v1/ConfigMap", "v1/ServiceAccount", "apps/v1/Deployment", "batch/v1/Job",
	"autoscaling/v2/HorizontalPodAutoscaler", "policy/v1/PodDisruptionBudget", "networking.k8s.io/v1/NetworkPolicy",
}

func readYAML(path string) (map[string]interface{}, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	if err := yaml.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// merge copies src over dst: maps merge key by key, anything else (lists included) replaces.
func merge(dst, src map[string]interface{}) map[string]interface{} {
	for k, v := range src {
		if sm, ok := v.(map[string]interface{}); ok {
			if dm, ok := dst[k].(map[string]interface{}); ok {
				dst[k] = merge(dm, sm)
				continue
			}
		}
		if v == nil {
			delete(dst, k) // as in helm: null removes a default
			continue
		}
		dst[k] = v
	}
	return dst
}

func toYAML(v interface{}) string {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func main() {
	var valueFiles, apiVersions listFlag
	flag.Var(&valueFiles, "f", "values file (repeatable)")
	flag.Var(&apiVersions, "api-versions", "extra API version the cluster has (repeatable)")
	name := flag.String("name", "trove", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	upgrade := flag.Bool("is-upgrade", false, "render as an upgrade")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: helm-render [-f values.yaml]... [--api-versions gv]... CHART")
		os.Exit(2)
	}
	if err := render(flag.Arg(0), valueFiles, append(builtinAPIVersions, apiVersions...), *name, *namespace, *upgrade); err != nil {
		fmt.Fprintln(os.Stderr, "helm-render:", err)
		os.Exit(1)
	}
}

func render(chartDir string, valueFiles, apiVersions []string, name, namespace string, upgrade bool) error {
	chart, err := readYAML(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return err
	}
	values, err := readYAML(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return err
	}
	for _, f := range valueFiles {
		extra, err := readYAML(f)
		if err != nil {
			return err
		}
		values = merge(values, extra)
	}
	chartName, _ := chart["name"].(string)

	root := template.New("chart")
	funcs := sprig.TxtFuncMap()
	funcs["include"] = func(tname string, data interface{}) (string, error) {
		var buf bytes.Buffer
		err := root.ExecuteTemplate(&buf, tname, data)
		return buf.String(), err
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		err = t.Execute(&buf, data)
		return strings.ReplaceAll(buf.String(), "<no value>", ""), err
	}
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil || v == "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return v, nil
	}
	funcs["toYaml"] = toYAML
	funcs["fromYaml"] = func(s string) map[string]interface{} {
		out := map[string]interface{}{}
		_ = yaml.Unmarshal([]byte(s), &out)
		return out
	}
	funcs["lookup"] = func(...string) map[string]interface{} { return map[string]interface{}{} }
	root.Funcs(funcs)

	// templates/ and its subfolders (templates/tests/), as helm reads them.
	var files []string
	err = filepath.WalkDir(filepath.Join(chartDir, "templates"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	var names []string
	for _, f := range files {
		ext := filepath.Ext(f)
		if ext != ".yaml" && ext != ".tpl" && ext != ".yml" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(chartDir, "templates"), f)
		tname := chartName + "/templates/" + filepath.ToSlash(rel)
		if _, err := root.New(tname).Parse(string(src)); err != nil {
			return err
		}
		if !strings.HasPrefix(filepath.Base(f), "_") {
			names = append(names, tname)
		}
	}

	data := map[string]interface{}{
		"Values": values,
		"Chart": map[string]interface{}{
			"Name": chartName, "Version": chart["version"], "AppVersion": chart["appVersion"],
			"Description": chart["description"],
		},
		"Release": map[string]interface{}{
			"Name": name, "Namespace": namespace, "Service": "Helm", "Revision": 1,
			"IsInstall": !upgrade, "IsUpgrade": upgrade,
		},
		"Files": Files{dir: chartDir},
		"Capabilities": map[string]interface{}{
			"APIVersions": APIVersions(apiVersions),
			"KubeVersion": map[string]interface{}{"Version": "v1.30.0", "Major": "1", "Minor": "30"},
		},
	}
	for _, tname := range names {
		data["Template"] = map[string]interface{}{"Name": tname, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, tname, data); err != nil {
			return err
		}
		for _, doc := range strings.Split(strings.ReplaceAll(buf.String(), "<no value>", ""), "\n---") {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			fmt.Printf("---\n# Source: %s\n%s\n", tname, strings.TrimPrefix(strings.TrimSpace(doc), "---\n"))
		}
	}
	return nil
}

// Files answers .Files.Get "path" (relative to the chart) as helm does: the text, or "" when absent.
type Files struct{ dir string }

func (f Files) Get(name string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(name)))
	if err != nil {
		return ""
	}
	return string(b)
}

func stripComments(doc string) string {
	var keep []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
