package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each invalid fixture must be refused with a message that names the mistake.
func TestFixtures(t *testing.T) {
	cases := map[string]string{
		"valid.yaml":              "",
		"misspelled-field.yaml":   `unknown field "spec.template.spec.containers[0].readinesProbe"`,
		"duplicate-field.yaml":    `key "image" already set`,
		"wrong-type.yaml":         "cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas",
		"unknown-kind.yaml":       `no kind "Deploymnet" is registered`,
		"selector-mismatch.yaml":  "must match spec.selector",
		"statefulset-claims.yaml": "",
		"unknown-volume.yaml":     "volumeMounts[cache]: no volume of that name",
	}
	for file, want := range cases {
		t.Run(file, func(t *testing.T) {
			in, err := os.Open(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			results, err := Validate(in, file)
			if err != nil {
				t.Fatal(err)
			}
			if len(results) == 0 {
				t.Fatal("no object read")
			}
			var errs []string
			for _, r := range results {
				errs = append(errs, r.Errors...)
			}
			joined := strings.Join(errs, "\n")
			if want == "" && joined != "" {
				t.Fatalf("expected no error, got %s", joined)
			}
			if want != "" && !strings.Contains(joined, want) {
				t.Fatalf("expected an error containing %q, got %q", want, joined)
			}
		})
	}
}

func TestSameObjectTwice(t *testing.T) {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	results, err := Validate(strings.NewReader(doc+"---\n"+doc), "twice")
	if err != nil {
		t.Fatal(err)
	}
	duplicates(results)
	if len(results) != 2 || len(results[1].Errors) != 1 || !strings.Contains(results[1].Errors[0], "the same object as twice#1") {
		t.Fatalf("expected the second ConfigMap to be refused, got %+v", results)
	}
}
