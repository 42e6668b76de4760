package corpus

import (
	"sort"
	"strings"
	"testing"
)

// treeNode is one line of the `providers` command's tree and the lines
// below it.
type treeNode struct {
	text     string
	children []*treeNode
}

// sortProvidersTree sorts, at every level, the branches of the tree that
// the `providers` command prints under "Providers required by
// configuration:": OpenTofu walks each module's requirements and calls
// from Go maps, so their order varies from run to run.
func sortProvidersTree(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasSuffix(lines[i], "Providers required by configuration:") || lines[i+1] != "." {
			continue
		}
		start := i + 2
		end := start
		for end < len(lines) && treeDepth(lines[end]) > 0 {
			end++
		}
		root := &treeNode{}
		parseTree(root, lines[start:end], 1)
		var rendered []string
		renderTree(root, "", &rendered)
		copy(lines[start:end], rendered)
		i = end - 1
	}
	return strings.Join(lines, "\n")
}

// treeDepth is how deep a tree line is, by its prefix of four-column
// units ending in a branch; 0 when the line is not a tree line.
func treeDepth(line string) int {
	depth := 0
	for {
		switch {
		case strings.HasPrefix(line, "├── "), strings.HasPrefix(line, "└── "):
			return depth + 1
		case strings.HasPrefix(line, "│   "), strings.HasPrefix(line, "    "):
			line = line[len(firstUnit(line)):]
			depth++
		default:
			return 0
		}
	}
}

func firstUnit(line string) string {
	if strings.HasPrefix(line, "│") {
		return "│   "
	}
	return "    "
}

// parseTree reads lines at depth into parent's children, each with the
// deeper lines that follow it.
func parseTree(parent *treeNode, lines []string, depth int) {
	for i := 0; i < len(lines); {
		node := &treeNode{text: treeText(lines[i])}
		j := i + 1
		for j < len(lines) && treeDepth(lines[j]) > depth {
			j++
		}
		parseTree(node, lines[i+1:j], depth+1)
		parent.children = append(parent.children, node)
		i = j
	}
}

func treeText(line string) string {
	for treeDepth(line) > 1 {
		line = line[len(firstUnit(line)):]
	}
	return line[len("├── "):]
}

func (n *treeNode) key() string {
	var lines []string
	renderTree(n, "", &lines)
	return n.text + "\n" + strings.Join(lines, "\n")
}

// renderTree writes n's children, sorted, below prefix.
func renderTree(n *treeNode, prefix string, out *[]string) {
	sort.SliceStable(n.children, func(i, j int) bool { return n.children[i].key() < n.children[j].key() })
	for i, child := range n.children {
		branch, under := "├── ", "│   "
		if i == len(n.children)-1 {
			branch, under = "└── ", "    "
		}
		*out = append(*out, prefix+branch+child.text)
		renderTree(child, prefix+under, out)
	}
}

func TestSortProvidersTree(t *testing.T) {
	in := "\nProviders required by configuration:\n.\n├── provider[b]\n└── module.m\n    ├── provider[z]\n    ├── module.n\n    │   └── provider[y]\n    └── provider[a]\n\nProviders required by state:\n"
	want := "\nProviders required by configuration:\n.\n├── module.m\n│   ├── module.n\n│   │   └── provider[y]\n│   ├── provider[a]\n│   └── provider[z]\n└── provider[b]\n\nProviders required by state:\n"
	if got := sortProvidersTree(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
