package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/value"
)

// Parser reads configuration files. It remembers every file it has read so
// that diagnostics can be printed with source snippets (see Files). A
// Parser is safe for concurrent use.
type Parser struct {
	// Static is what the early evaluation of module sources and versions
	// reads beyond the configuration; set it before loading.
	Static StaticInputs

	mu    sync.Mutex
	files map[string]*hcl.File
}

// NewParser returns a Parser with no files read yet.
func NewParser() *Parser {
	return &Parser{files: map[string]*hcl.File{}}
}

// Files returns the files read so far, by path, for diagnostic rendering
// (hcl.NewDiagnosticTextWriter).
func (p *Parser) Files() map[string]*hcl.File {
	p.mu.Lock()
	defer p.mu.Unlock()
	files := make(map[string]*hcl.File, len(p.files))
	for path, file := range p.files {
		files[path] = file
	}
	return files
}

// loadFiles reads and decodes files in parallel, since parsing dominates
// the cost of loading a large configuration, and returns them in the
// given order with their diagnostics in that order too.
func (p *Parser) loadFiles(paths []string) ([]*File, hcl.Diagnostics) {
	files := make([]*File, len(paths))
	fileDiags := make([]hcl.Diagnostics, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				files[i], fileDiags[i] = p.LoadFile(paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range fileDiags {
		diags = append(diags, d...)
	}
	return files, diags
}

// parseFile parses one file as native syntax or JSON by its extension.
func (p *Parser) parseFile(path string) (*hcl.File, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The configuration file %q could not be read: %s.", path, err),
		}}
	}
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		file, diags = hcljson.Parse(src, path)
		if err := value.CheckJSONNumbers(src); err != nil && !diags.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Number too large",
				Detail: fmt.Sprintf("The file %s holds a number Terrane cannot work with: %s.", path, err)})
		}
	} else {
		file, diags = hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		if file != nil {
			diags = append(diags, checkNumberLiterals(file)...)
		}
	}
	if file != nil {
		p.mu.Lock()
		p.files[path] = file
		p.mu.Unlock()
	}
	return file, diags
}

// LoadFile reads and decodes one configuration file.
func (p *Parser) LoadFile(path string) (*File, hcl.Diagnostics) {
	f, diags := p.parseFile(path)
	if f == nil || f.Body == nil {
		return &File{Path: path}, diags
	}
	file, moreDiags := decodeFile(path, f.Body)
	return file, append(diags, moreDiags...)
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "language"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "removed"},
		{Type: "check", LabelNames: []string{"name"}},
	},
}

// decodeFile turns a file's top-level blocks into a File.
func decodeFile(path string, body hcl.Body) (*File, hcl.Diagnostics) {
	file := &File{Path: path}
	diags := checkVersionRequirements(path, body)
	content, moreDiags := body.Content(fileSchema)
	diags = append(diags, moreDiags...)
	for _, block := range content.Blocks {
		diags = append(diags, decodeTopLevelBlock(file, block)...)
	}
	return file, diags
}

func decodeTopLevelBlock(file *File, block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	switch block.Type {
	case "terraform":
		diags = decodeTerraformBlock(file, block)
	case "language":
		diags = decodeLanguageBlock(block, isOverrideFile(filepath.Base(file.Path)))
	case "provider":
		var provider *Provider
		provider, diags = decodeProviderBlock(block)
		appendIfDecoded(&file.ProviderConfigs, provider)
	case "variable":
		var variable *Variable
		variable, diags = decodeVariableBlock(block)
		appendIfDecoded(&file.Variables, variable)
	case "locals":
		var locals []*Local
		locals, diags = decodeLocalsBlock(block)
		file.Locals = append(file.Locals, locals...)
	case "output":
		var output *Output
		output, diags = decodeOutputBlock(block)
		appendIfDecoded(&file.Outputs, output)
	case "module":
		var call *ModuleCall
		call, diags = decodeModuleBlock(block)
		appendIfDecoded(&file.ModuleCalls, call)
	case "resource", "data", "ephemeral":
		var resource *Resource
		resource, diags = decodeResourceBlock(block)
		appendIfDecoded(&file.Resources, resource)
	case "moved":
		var moved *Moved
		moved, diags = decodeMovedBlock(block)
		appendIfDecoded(&file.Moved, moved)
	case "import":
		var imp *Import
		imp, diags = decodeImportBlock(block)
		appendIfDecoded(&file.Import, imp)
	case "removed":
		var removed *Removed
		removed, diags = decodeRemovedBlock(block)
		appendIfDecoded(&file.Removed, removed)
	case "check":
		var check *Check
		check, diags = decodeCheckBlock(block)
		appendIfDecoded(&file.Checks, check)
	}
	return diags
}

func appendIfDecoded[T any](list *[]*T, item *T) {
	if item != nil {
		*list = append(*list, item)
	}
}

// checkNumberLiterals refuses number literals too large (or too small) to
// write out: a value like 1e9999999 is parsed at once but takes minutes and
// megabytes to print or store each time it is shown (value.MaxDecimalExponent).
func checkNumberLiterals(file *hcl.File) hcl.Diagnostics {
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	_ = hclsyntax.VisitAll(body, func(node hclsyntax.Node) hcl.Diagnostics {
		lit, ok := node.(*hclsyntax.LiteralValueExpr)
		if !ok || lit.Val.Type() != cty.Number || lit.Val.IsNull() || !lit.Val.IsKnown() || !value.NumberTooLarge(lit.Val.AsBigFloat()) {
			return nil
		}
		rng := lit.SrcRange
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Number too large", Subject: &rng,
			Detail: fmt.Sprintf("This number is beyond the ±1e%d Terrane works with: writing it out in full, as plans, state and output do, would take minutes and megabytes.", value.MaxDecimalExponent)})
		return nil
	})
	return diags
}
