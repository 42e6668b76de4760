package format

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Source returns src in canonical style. The caller must have checked that
// src parses as native syntax (hclsyntax.ParseConfig); if it does not,
// Source returns it unchanged rather than guess.
func Source(src []byte, filename string) []byte {
	file, diags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() || file == nil {
		return src
	}
	formatBody(file.Body(), nil)
	return file.Bytes()
}

func formatBody(body *hclwrite.Body, inBlocks []string) {
	for name, attr := range body.Attributes() {
		tokens := attr.Expr().BuildTokens(nil)
		if len(inBlocks) == 1 && inBlocks[0] == "variable" && name == "type" {
			body.SetAttributeRaw(name, normalizeTypeExpr(tokens))
			continue
		}
		body.SetAttributeRaw(name, unwrapInterpolation(tokens))
	}
	for _, block := range body.Blocks() {
		// Re-setting the labels rewrites them in quoted form and drops
		// comments wedged between them.
		block.SetLabels(block.Labels())
		formatBody(block.Body(), append(inBlocks, block.Type()))
	}
}

// unwrapInterpolation turns "${expr}" into expr when the string holds
// nothing but that one interpolation.
func unwrapInterpolation(tokens hclwrite.Tokens) hclwrite.Tokens {
	if len(tokens) < 5 {
		return tokens // too short for quote, ${, something, }, quote
	}
	first, second := tokens[0], tokens[1]
	penultimate, last := tokens[len(tokens)-2], tokens[len(tokens)-1]
	if first.Type != hclsyntax.TokenOQuote || second.Type != hclsyntax.TokenTemplateInterp ||
		penultimate.Type != hclsyntax.TokenTemplateSeqEnd || last.Type != hclsyntax.TokenCQuote {
		return tokens
	}
	inside := tokens[2 : len(tokens)-2]
	if !isSingleInterpolation(inside) {
		return tokens
	}
	inside = trimNewlines(inside)
	// An expression spread over lines, such as a conditional, only parses
	// without the quotes if it is parenthesized.
	multiLine, leadingParen, trailingParen := false, false, false
	for i, token := range inside {
		switch {
		case i == 0 && token.Type == hclsyntax.TokenOParen:
			leadingParen = true
		case token.Type == hclsyntax.TokenNewline:
			multiLine = true
		case i == len(inside)-1 && token.Type == hclsyntax.TokenCParen:
			trailingParen = true
		}
	}
	if multiLine && !(leadingParen && trailingParen) {
		wrapped := make(hclwrite.Tokens, 0, len(inside)+2)
		wrapped = append(wrapped, &hclwrite.Token{Type: hclsyntax.TokenOParen, Bytes: []byte("(")})
		wrapped = append(wrapped, inside...)
		return append(wrapped, &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")})
	}
	return inside
}

// isSingleInterpolation reports whether the tokens between "${ and }" are
// one expression: no literal text and no further template sequences at
// the outer quoting level ("${a}${b}" and "${a}-x" stay as they are).
func isSingleInterpolation(inside hclwrite.Tokens) bool {
	depth := 0
	for _, token := range inside {
		switch token.Type {
		case hclsyntax.TokenOQuote:
			depth++
			continue
		case hclsyntax.TokenCQuote:
			depth--
			continue
		}
		if depth > 0 {
			continue
		}
		switch token.Type {
		case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenQuotedLit:
			return false
		}
	}
	return true
}

func trimNewlines(tokens hclwrite.Tokens) hclwrite.Tokens {
	start, end := 0, len(tokens)
	for start < end && tokens[start].Type == hclsyntax.TokenNewline {
		start++
	}
	for end > start && tokens[end-1].Type == hclsyntax.TokenNewline {
		end--
	}
	return tokens[start:end]
}

// normalizeTypeExpr spells out legacy type constraints: list, map and set
// alone mean their any-typed forms, and the quoted forms of old
// configurations become string, list(string) and map(string), which is
// what they meant then.
func normalizeTypeExpr(tokens hclwrite.Tokens) hclwrite.Tokens {
	switch len(tokens) {
	case 1:
		keyword := tokens[0]
		if keyword.Type != hclsyntax.TokenIdent {
			return tokens
		}
		switch string(keyword.Bytes) {
		case "list", "map", "set":
			return typeCall(string(keyword.Bytes), "any")
		}
	case 3:
		if tokens[0].Type != hclsyntax.TokenOQuote || tokens[1].Type != hclsyntax.TokenQuotedLit || tokens[2].Type != hclsyntax.TokenCQuote {
			return tokens
		}
		switch name := string(tokens[1].Bytes); name {
		case "string":
			return hclwrite.Tokens{identToken("string")}
		case "list", "map":
			return typeCall(name, "string")
		}
	}
	return tokens
}

func identToken(name string) *hclwrite.Token {
	return &hclwrite.Token{Type: hclsyntax.TokenIdent, Bytes: []byte(name)}
}

func typeCall(constructor, element string) hclwrite.Tokens {
	return hclwrite.Tokens{
		identToken(constructor),
		{Type: hclsyntax.TokenOParen, Bytes: []byte("(")},
		identToken(element),
		{Type: hclsyntax.TokenCParen, Bytes: []byte(")")},
	}
}
