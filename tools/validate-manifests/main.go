// Command validate-manifests checks rendered Kubernetes manifests (multi-document
// YAML, as `helm template` prints them) against the API types of k8s.io/api,
// without a cluster and without downloading a schema (docs/adr/0006).
//
// Every document is decoded with client-go's scheme in strict mode: an unknown
// or misspelled field, a field given twice, a value of the wrong type, or a kind
// the scheme does not know is an error. A few rules the API server enforces
// and the types cannot express are checked as well (object and container
// names, a workload's selector matching its pod labels, one object per kind,
// namespace and name).
//
//	validate-manifests [file ...]   (no file, or "-": standard input)
//
// One line per object, then a summary; the exit status is 1 when any object
// is invalid or no object was found, 2 when a file cannot be read.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// Result is the verdict on one document of the input.
type Result struct {
	Source string
	Index  int // 1-based position of the document in its source
	Kind   string
	Name   string
	Errors []string
}

func (r Result) String() string {
	what := fmt.Sprintf("%s#%d", r.Source, r.Index)
	if r.Kind != "" {
		what = fmt.Sprintf("%s %s (%s)", r.Kind, r.Name, what)
	}
	if len(r.Errors) == 0 {
		return "ok      " + what
	}
	return "INVALID " + what + ": " + strings.Join(r.Errors, "; ")
}

// strictDecoder refuses unknown and duplicate fields; it neither defaults nor converts.
var strictDecoder = serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict).UniversalDeserializer()

// Validate reads every YAML document of r and decodes the non-empty ones.
func Validate(r io.Reader, source string) ([]Result, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(r))
	var results []Result
	for index := 1; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return results, nil
		}
		if err != nil {
			return results, fmt.Errorf("%s: reading document %d: %w", source, index, err)
		}
		if isEmpty(doc) {
			continue
		}
		results = append(results, validateDocument(doc, source, index))
	}
}

// isEmpty: a document of only comments and separators, as helm prints for a template that renders nothing.
func isEmpty(doc []byte) bool {
	asJSON, err := yaml.YAMLToJSON(doc)
	return err == nil && bytes.Equal(bytes.TrimSpace(asJSON), []byte("null"))
}

func validateDocument(doc []byte, source string, index int) Result {
	result := Result{Source: source, Index: index}
	obj, gvk, err := strictDecoder.Decode(doc, nil, nil)
	if gvk != nil && gvk.Kind != "" {
		result.Kind = gvk.GroupVersion().String() + " " + gvk.Kind
	} else {
		// Decoding failed before the kind was known: name the object from its header all the same.
		var header struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if yaml.Unmarshal(doc, &header) == nil && header.Kind != "" {
			result.Kind, result.Name = header.APIVersion+" "+header.Kind, header.Metadata.Name
		}
	}
	if obj == nil || (err != nil && !runtime.IsStrictDecodingError(err)) {
		// Wrong types, unknown kinds and missing apiVersion/kind leave no object to look at.
		result.Errors = append(result.Errors, oneLine(err))
		return result
	}
	if err != nil {
		if strict, ok := runtime.AsStrictDecodingError(err); ok {
			for _, e := range strict.Errors() {
				result.Errors = append(result.Errors, oneLine(e))
			}
		} else {
			result.Errors = append(result.Errors, oneLine(err))
		}
	}
	if accessor, ok := obj.(metav1.Object); ok {
		result.Name = accessor.GetName()
		if accessor.GetNamespace() != "" {
			result.Name = accessor.GetNamespace() + "/" + result.Name
		}
	}
	result.Errors = append(result.Errors, semanticErrors(obj)...)
	return result
}

// semanticErrors: what the API server would refuse although the types allow it.
func semanticErrors(obj runtime.Object) []string {
	var errs []string
	meta, ok := obj.(metav1.Object)
	if !ok {
		return errs
	}
	switch {
	case meta.GetName() == "" && meta.GetGenerateName() == "":
		errs = append(errs, "metadata.name: required")
	case meta.GetName() != "":
		nameRule := validation.IsDNS1123Subdomain
		if _, isService := obj.(*corev1.Service); isService {
			nameRule = validation.IsDNS1035Label
		}
		for _, msg := range nameRule(meta.GetName()) {
			errs = append(errs, "metadata.name: "+msg)
		}
	}
	for key, value := range meta.GetLabels() {
		for _, msg := range validation.IsQualifiedName(key) {
			errs = append(errs, fmt.Sprintf("metadata.labels[%s]: %s", key, msg))
		}
		for _, msg := range validation.IsValidLabelValue(value) {
			errs = append(errs, fmt.Sprintf("metadata.labels[%s]: %s", key, msg))
		}
	}

	var selector *metav1.LabelSelector
	var pod *corev1.PodTemplateSpec
	var claims []string // a StatefulSet's volume claim templates are volumes of its pods too
	switch o := obj.(type) {
	case *appsv1.Deployment:
		selector, pod = o.Spec.Selector, &o.Spec.Template
	case *appsv1.StatefulSet:
		selector, pod = o.Spec.Selector, &o.Spec.Template
		for _, claim := range o.Spec.VolumeClaimTemplates {
			claims = append(claims, claim.Name)
		}
	case *appsv1.DaemonSet:
		selector, pod = o.Spec.Selector, &o.Spec.Template
	case *appsv1.ReplicaSet:
		selector, pod = o.Spec.Selector, &o.Spec.Template
	case *batchv1.Job:
		pod = &o.Spec.Template
	case *batchv1.CronJob:
		pod = &o.Spec.JobTemplate.Spec.Template
	}
	if pod == nil {
		return errs
	}
	if _, isJob := obj.(*batchv1.Job); !isJob {
		if _, isCron := obj.(*batchv1.CronJob); !isCron {
			errs = append(errs, selectorErrors(selector, pod.Labels)...)
		}
	}
	return append(errs, podErrors(&pod.Spec, claims)...)
}

func selectorErrors(selector *metav1.LabelSelector, podLabels map[string]string) []string {
	if selector == nil || (len(selector.MatchLabels) == 0 && len(selector.MatchExpressions) == 0) {
		return []string{"spec.selector: required"}
	}
	parsed, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return []string{"spec.selector: " + err.Error()}
	}
	if !parsed.Matches(labels.Set(podLabels)) {
		return []string{fmt.Sprintf("spec.template.metadata.labels: must match spec.selector (%s)", parsed)}
	}
	return nil
}

func podErrors(spec *corev1.PodSpec, claims []string) []string {
	var errs []string
	volumes := map[string]bool{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = true
	}
	for _, name := range claims {
		volumes[name] = true
	}
	if len(spec.Containers) == 0 {
		errs = append(errs, "spec.template.spec.containers: at least one container")
	}
	seen := map[string]bool{}
	check := func(field string, c corev1.Container) {
		where := fmt.Sprintf("%s[%s]", field, c.Name)
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			errs = append(errs, where+".name: "+msg)
		}
		if seen[c.Name] {
			errs = append(errs, where+".name: duplicate container name")
		}
		seen[c.Name] = true
		if c.Image == "" {
			errs = append(errs, where+".image: required")
		}
		for _, port := range c.Ports {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, fmt.Sprintf("%s.ports[%d].containerPort: %s", where, port.ContainerPort, msg))
			}
		}
		for _, mount := range c.VolumeMounts {
			if !volumes[mount.Name] {
				errs = append(errs, fmt.Sprintf("%s.volumeMounts[%s]: no volume of that name in the pod", where, mount.Name))
			}
		}
	}
	for _, c := range spec.InitContainers {
		check("initContainers", c)
	}
	for _, c := range spec.Containers {
		check("containers", c)
	}
	return errs
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// duplicates marks a second object of the same kind, namespace and name: kubectl apply would merge them silently.
func duplicates(results []Result) {
	first := map[string]string{}
	for i := range results {
		r := &results[i]
		if r.Kind == "" || r.Name == "" {
			continue
		}
		key := r.Kind + " " + r.Name
		where := fmt.Sprintf("%s#%d", r.Source, r.Index)
		if earlier, ok := first[key]; ok {
			r.Errors = append(r.Errors, "the same object as "+earlier)
			continue
		}
		first[key] = where
	}
}

func main() {
	sources := os.Args[1:]
	if len(sources) == 0 {
		sources = []string{"-"}
	}
	var results []Result
	for _, source := range sources {
		var in io.Reader = os.Stdin
		name := "stdin"
		if source != "-" {
			file, err := os.Open(source)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			defer file.Close()
			in, name = file, source
		}
		found, err := Validate(in, name)
		results = append(results, found...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	duplicates(results)

	invalid := 0
	kinds := map[string]int{}
	for _, r := range results {
		fmt.Println(r)
		if len(r.Errors) > 0 {
			invalid++
		}
		if r.Kind != "" {
			kinds[r.Kind[strings.LastIndex(r.Kind, " ")+1:]]++
		}
	}
	names := make([]string, 0, len(kinds))
	for kind, n := range kinds {
		names = append(names, fmt.Sprintf("%d %s", n, kind))
	}
	sort.Strings(names)
	fmt.Printf("validated %d objects (%s) against k8s.io/api %s: %d valid, %d invalid\n", len(results), strings.Join(names, ", "), apiVersion(), len(results)-invalid, invalid)
	if len(results) == 0 {
		fmt.Fprintln(os.Stderr, "no Kubernetes object found in the input")
		os.Exit(1)
	}
	if invalid > 0 {
		os.Exit(1)
	}
}

// apiVersion names the k8s.io/api release whose types are the schema.
func apiVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/api" {
				return dep.Version
			}
		}
	}
	return "(unknown version)"
}
