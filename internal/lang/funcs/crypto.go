package funcs

import (
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	ctycrypto "github.com/hashicorp/go-cty-funcs/crypto"
	ctyuuid "github.com/hashicorp/go-cty-funcs/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/crypto/ssh"
)

// Hash functions of strings hash the string's UTF-8 bytes; go-cty-funcs
// already behaves exactly as OpenTofu documents for these.
var (
	Md5Func    = ctycrypto.Md5Func
	Sha1Func   = ctycrypto.Sha1Func
	Sha256Func = ctycrypto.Sha256Func
	Sha512Func = ctycrypto.Sha512Func
	BcryptFunc = ctycrypto.BcryptFunc
	UUIDFunc   = ctyuuid.V4Func
	UUIDV5Func = ctyuuid.V5Func
)

// Base64Sha256Func and Base64Sha512Func give the raw digest base64-encoded
// rather than hex-encoded.
var (
	Base64Sha256Func = makeStringHashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	Base64Sha512Func = makeStringHashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

func makeStringHashFunc(newHash func() hash.Hash, encode func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(encode(h.Sum(nil))), nil
		},
	})
}

// makeFileHashFunc builds a file hashing function. Unlike file(), it
// reports a missing or unreadable file with the operating system's own
// message, as OpenTofu does.
func makeFileHashFunc(baseDir string, newHash func() hash.Hash, encode func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path, err := resolvePath(baseDir, args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			f, err := os.Open(path)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			defer f.Close()
			h := newHash()
			if _, err := io.Copy(h, f); err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(encode(h.Sum(nil))), nil
		},
	})
}

// fileHashFuncs returns filemd5, filesha1, filesha256, filesha512,
// filebase64sha256 and filebase64sha512 reading relative to baseDir.
func fileHashFuncs(baseDir string) map[string]function.Function {
	hexEnc, b64Enc := hex.EncodeToString, base64.StdEncoding.EncodeToString
	return map[string]function.Function{
		"filemd5":          makeFileHashFunc(baseDir, md5.New, hexEnc),
		"filesha1":         makeFileHashFunc(baseDir, sha1.New, hexEnc),
		"filesha256":       makeFileHashFunc(baseDir, sha256.New, hexEnc),
		"filesha512":       makeFileHashFunc(baseDir, sha512.New, hexEnc),
		"filebase64sha256": makeFileHashFunc(baseDir, sha256.New, b64Enc),
		"filebase64sha512": makeFileHashFunc(baseDir, sha512.New, b64Enc),
	}
}

// RsaDecryptFunc decrypts base64 RSA PKCS#1 v1.5 ciphertext with a
// PEM-encoded private key. Neither input is ever echoed in an error.
var RsaDecryptFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ciphertext, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input: cipher text must be base64-encoded")
		}
		rawKey, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgError(1, describeKeyError(err))
		}
		key, ok := rawKey.(*rsa.PrivateKey)
		if !ok {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %T; rsadecrypt needs an RSA key", rawKey)
		}
		plain, err := rsa.DecryptPKCS1v15(nil, key, ciphertext)
		if err != nil {
			return cty.UnknownVal(cty.String), errors.New("failed to decrypt: the ciphertext does not match the private key or is corrupt")
		}
		return cty.StringVal(string(plain)), nil
	},
})

// describeKeyError turns an ssh key parsing error into advice, without
// quoting any part of the key.
func describeKeyError(err error) error {
	var missing *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &missing):
		return errors.New("failed to parse key: password protected keys are not supported; decrypt the key first")
	case err.Error() == "ssh: no key found":
		return errors.New("failed to parse key: no key found; the private key must be PEM-encoded")
	}
	return fmt.Errorf("failed to parse key: %w", err)
}
