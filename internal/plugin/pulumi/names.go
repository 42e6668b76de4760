package pulumi

import (
	"strings"
	"unicode"
)

// TypeName derives the Terraform-style type name of a resource token
// ("pkg:module:Type"); see the package documentation for examples.
func TypeName(token string) string {
	return tokenName(token, false)
}

// DataSourceName derives the data source name of a function token.
func DataSourceName(token string) string {
	return tokenName(token, true)
}

func tokenName(token string, function bool) string {
	parts := strings.Split(token, ":")
	if len(parts) != 3 {
		return SnakeCase(strings.ReplaceAll(token, ":", "_"))
	}
	pkg, module, member := parts[0], parts[1], parts[2]
	if i := strings.IndexByte(module, '/'); i >= 0 {
		module = module[:i]
	}
	if function && len(member) > 3 && strings.HasPrefix(member, "get") && unicode.IsUpper(rune(member[3])) {
		member = member[3:]
	}
	name := []string{SnakeCase(pkg)}
	if module != "" && module != "index" {
		name = append(name, SnakeCase(module))
	}
	return strings.Join(append(name, SnakeCase(member)), "_")
}

// SnakeCase turns a camelCase (or PascalCase) name into snake_case:
// "sizeClass" → "size_class", "httpURL" → "http_url", "URLPath" →
// "url_path". Names already in snake case are unchanged.
func SnakeCase(name string) string {
	runes := []rune(name)
	var out strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) && i > 0 {
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				out.WriteByte('_')
			}
		}
		if r == '-' || r == '.' || r == '/' {
			r = '_'
		}
		out.WriteRune(unicode.ToLower(r))
	}
	return out.String()
}
