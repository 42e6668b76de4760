package awskms

import (
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
	awsbase "github.com/hashicorp/aws-sdk-go-base/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/version"
)

var (
	stringList = cty.List(cty.String)

	assumeRoleType = cty.ObjectWithOptionalAttrs(map[string]cty.Type{
		"role_arn": cty.String, "duration": cty.String, "external_id": cty.String, "policy": cty.String,
		"policy_arns": stringList, "session_name": cty.String, "tags": cty.Map(cty.String), "transitive_tag_keys": stringList,
	}, []string{"duration", "external_id", "policy", "policy_arns", "session_name", "tags", "transitive_tag_keys"})

	webIdentityType = cty.ObjectWithOptionalAttrs(map[string]cty.Type{
		"role_arn": cty.String, "duration": cty.String, "policy": cty.String, "policy_arns": stringList,
		"session_name": cty.String, "web_identity_token": cty.String, "web_identity_token_file": cty.String,
	}, []string{"role_arn", "duration", "policy", "policy_arns", "session_name", "web_identity_token", "web_identity_token_file"})
)

func (Type) Spec() hcldec.Spec {
	spec := hcldec.ObjectSpec{
		"kms_key_id": &hcldec.AttrSpec{Name: "kms_key_id", Type: cty.String, Required: true},
		"key_spec":   &hcldec.AttrSpec{Name: "key_spec", Type: cty.String, Required: true},
		"endpoints": &hcldec.BlockSpec{TypeName: "endpoints", Nested: hcldec.ObjectSpec{
			"iam": &hcldec.AttrSpec{Name: "iam", Type: cty.String},
			"sts": &hcldec.AttrSpec{Name: "sts", Type: cty.String},
		}},
		"max_retries":                   &hcldec.AttrSpec{Name: "max_retries", Type: cty.Number},
		"skip_credentials_validation":   &hcldec.AttrSpec{Name: "skip_credentials_validation", Type: cty.Bool},
		"skip_requesting_account_id":    &hcldec.AttrSpec{Name: "skip_requesting_account_id", Type: cty.Bool},
		"insecure":                      &hcldec.AttrSpec{Name: "insecure", Type: cty.Bool},
		"use_dualstack_endpoint":        &hcldec.AttrSpec{Name: "use_dualstack_endpoint", Type: cty.Bool},
		"use_fips_endpoint":             &hcldec.AttrSpec{Name: "use_fips_endpoint", Type: cty.Bool},
		"skip_metadata_api_check":       &hcldec.AttrSpec{Name: "skip_metadata_api_check", Type: cty.Bool},
		"shared_credentials_files":      &hcldec.AttrSpec{Name: "shared_credentials_files", Type: stringList},
		"shared_config_files":           &hcldec.AttrSpec{Name: "shared_config_files", Type: stringList},
		"allowed_account_ids":           &hcldec.AttrSpec{Name: "allowed_account_ids", Type: stringList},
		"forbidden_account_ids":         &hcldec.AttrSpec{Name: "forbidden_account_ids", Type: stringList},
		"assume_role":                   &hcldec.AttrSpec{Name: "assume_role", Type: assumeRoleType},
		"assume_role_with_web_identity": &hcldec.AttrSpec{Name: "assume_role_with_web_identity", Type: webIdentityType},
	}
	for _, name := range []string{"access_key", "secret_key", "token", "profile", "region", "sts_region", "http_proxy", "https_proxy",
		"no_proxy", "custom_ca_bundle", "ec2_metadata_service_endpoint", "ec2_metadata_service_endpoint_mode", "retry_mode"} {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: cty.String}
	}
	return spec
}

// validate checks the arguments OpenTofu checks before any call.
func validate(config cty.Value) error {
	if keyprovider.String(config, "kms_key_id") == "" && keyprovider.Known(config, "kms_key_id") {
		return keyprovider.Invalid("kms_key_id", "no kms_key_id provided")
	}
	if !keyprovider.Known(config, "key_spec") {
		return nil
	}
	spec := keyprovider.String(config, "key_spec")
	for _, valid := range types.DataKeySpecAes256.Values() {
		if string(valid) == spec {
			return nil
		}
	}
	return keyprovider.Invalid("key_spec", "invalid key_spec %q, expected one of %v", spec, types.DataKeySpecAes256.Values())
}

// baseConfig turns the arguments into the S3 backend's configuration,
// with the same environment variable fallbacks.
func baseConfig(config cty.Value) (*awsbase.Config, error) {
	if keyprovider.String(config, "region") == "" && os.Getenv("AWS_REGION") == "" && os.Getenv("AWS_DEFAULT_REGION") == "" {
		return nil, keyprovider.Invalid("region", `the "region" argument or the AWS_REGION or AWS_DEFAULT_REGION environment variable must be set`)
	}
	iam, sts, err := endpoints(config)
	if err != nil {
		return nil, err
	}
	maxRetries, err := keyprovider.Int(config, "max_retries", 5)
	if err != nil {
		return nil, keyprovider.Invalid("max_retries", "%s", err)
	}
	var retryMode aws.RetryMode
	if mode := keyprovider.String(config, "retry_mode"); mode != "" {
		if retryMode, err = aws.ParseRetryMode(mode); err != nil {
			return nil, keyprovider.Invalid("retry_mode", "%s: expected %q or %q", err, aws.RetryModeStandard, aws.RetryModeAdaptive)
		}
	}
	allowed, forbidden := keyprovider.Strings(config, "allowed_account_ids"), keyprovider.Strings(config, "forbidden_account_ids")
	if len(allowed) > 0 && len(forbidden) > 0 {
		return nil, keyprovider.Invalid("allowed_account_ids", "only allowed_account_ids or forbidden_account_ids can be given, not both")
	}
	roles, err := assumeRoles(keyprovider.Attr(config, "assume_role"))
	if err != nil {
		return nil, err
	}
	webIdentity, err := assumeRoleWithWebIdentity(keyprovider.Attr(config, "assume_role_with_web_identity"))
	if err != nil {
		return nil, err
	}
	return &awsbase.Config{
		AccessKey: keyprovider.String(config, "access_key"), SecretKey: keyprovider.String(config, "secret_key"),
		Token: keyprovider.String(config, "token"), Profile: keyprovider.String(config, "profile"),
		Region: keyprovider.String(config, "region"), StsRegion: keyprovider.String(config, "sts_region"),
		CallerName: "KMS Key Provider", CallerDocumentationURL: "https://opentofu.org/docs/language/state/encryption/",
		IamEndpoint: envFallback(iam, "AWS_ENDPOINT_URL_IAM"), StsEndpoint: envFallback(sts, "AWS_ENDPOINT_URL_STS"),
		MaxRetries: maxRetries, RetryMode: retryMode,
		SkipCredsValidation:     boolAttr(config, "skip_credentials_validation"),
		SkipRequestingAccountId: boolAttr(config, "skip_requesting_account_id"),
		HTTPProxy:               optionalString(config, "http_proxy"), HTTPSProxy: optionalString(config, "https_proxy"),
		NoProxy: keyprovider.String(config, "no_proxy"), Insecure: boolAttr(config, "insecure"),
		UseDualStackEndpoint: boolAttr(config, "use_dualstack_endpoint"), UseFIPSEndpoint: boolAttr(config, "use_fips_endpoint"),
		CustomCABundle:                 envFallback(keyprovider.String(config, "custom_ca_bundle"), "AWS_CA_BUNDLE"),
		EC2MetadataServiceEnableState:  metadataState(config),
		EC2MetadataServiceEndpoint:     envFallback(keyprovider.String(config, "ec2_metadata_service_endpoint"), "AWS_EC2_METADATA_SERVICE_ENDPOINT"),
		EC2MetadataServiceEndpointMode: envFallback(keyprovider.String(config, "ec2_metadata_service_endpoint_mode"), "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"),
		SharedCredentialsFiles:         listEnvFallback(keyprovider.Strings(config, "shared_credentials_files"), "AWS_SHARED_CREDENTIALS_FILE"),
		SharedConfigFiles:              listEnvFallback(keyprovider.Strings(config, "shared_config_files"), "AWS_SHARED_CONFIG_FILE"),
		AssumeRole:                     roles, AssumeRoleWithWebIdentity: webIdentity,
		AllowedAccountIds: allowed, ForbiddenAccountIds: forbidden,
		UserAgent: awsbase.UserAgentProducts{{Name: "APN", Version: "1.0"}, {Name: "Terrane", Version: version.Version}},
	}, nil
}

var hasScheme = regexp.MustCompile(`^[a-z]*://`)

func endpoints(config cty.Value) (iam, sts string, err error) {
	block := keyprovider.Attr(config, "endpoints")
	if block.IsNull() {
		return "", "", nil
	}
	withScheme := func(endpoint string) string {
		if endpoint != "" && !hasScheme.MatchString(endpoint) {
			return "https://" + endpoint
		}
		return endpoint
	}
	return withScheme(keyprovider.String(block, "iam")), withScheme(keyprovider.String(block, "sts")), nil
}

func assumeRoles(val cty.Value) ([]awsbase.AssumeRole, error) {
	if val.IsNull() || !val.IsWhollyKnown() {
		return nil, nil
	}
	duration, err := roleDuration(keyprovider.String(val, "duration"))
	if err != nil {
		return nil, keyprovider.Invalid("assume_role", "%s", err)
	}
	arns := keyprovider.Strings(val, "policy_arns")
	if err := validatePolicyARNs(arns); err != nil {
		return nil, keyprovider.Invalid("assume_role", "policy_arns: %s", err)
	}
	var tags map[string]string
	if t := keyprovider.Attr(val, "tags"); !t.IsNull() {
		tags = map[string]string{}
		for k, v := range t.AsValueMap() {
			tags[k] = v.AsString()
		}
	}
	return []awsbase.AssumeRole{{RoleARN: keyprovider.String(val, "role_arn"), Duration: duration, ExternalID: keyprovider.String(val, "external_id"),
		Policy: keyprovider.String(val, "policy"), PolicyARNs: arns, SessionName: keyprovider.String(val, "session_name"),
		Tags: tags, TransitiveTagKeys: keyprovider.Strings(val, "transitive_tag_keys")}}, nil
}

func assumeRoleWithWebIdentity(val cty.Value) (*awsbase.AssumeRoleWithWebIdentity, error) {
	if val.IsNull() || !val.IsWhollyKnown() {
		return nil, nil
	}
	token, tokenFile := keyprovider.String(val, "web_identity_token"), keyprovider.String(val, "web_identity_token_file")
	if token != "" && tokenFile != "" {
		return nil, keyprovider.Invalid("assume_role_with_web_identity", "only web_identity_token or web_identity_token_file can be given, not both")
	}
	duration, err := roleDuration(keyprovider.String(val, "duration"))
	if err != nil {
		return nil, keyprovider.Invalid("assume_role_with_web_identity", "%s", err)
	}
	arns := keyprovider.Strings(val, "policy_arns")
	if err := validatePolicyARNs(arns); err != nil {
		return nil, keyprovider.Invalid("assume_role_with_web_identity", "policy_arns: %s", err)
	}
	return &awsbase.AssumeRoleWithWebIdentity{
		RoleARN: envFallback(keyprovider.String(val, "role_arn"), "AWS_ROLE_ARN"), Duration: duration,
		Policy: keyprovider.String(val, "policy"), PolicyARNs: arns,
		SessionName:          envFallback(keyprovider.String(val, "session_name"), "AWS_ROLE_SESSION_NAME"),
		WebIdentityToken:     envFallback(token, "AWS_WEB_IDENTITY_TOKEN"),
		WebIdentityTokenFile: envFallback(tokenFile, "AWS_WEB_IDENTITY_TOKEN_FILE"),
	}, nil
}

// roleDuration parses an assume-role duration, which AWS bounds to 15
// minutes through 12 hours.
func roleDuration(text string) (time.Duration, error) {
	if text == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %w", text, err)
	}
	if d < 15*time.Minute || d > 12*time.Hour {
		return 0, fmt.Errorf("the duration must be between 15m and 12h, not %s", d)
	}
	return d, nil
}

func validatePolicyARNs(arns []string) error {
	for _, text := range arns {
		parsed, err := arn.Parse(text)
		if err != nil {
			return err
		}
		if len(parsed.Resource) < len("policy/") || parsed.Resource[:len("policy/")] != "policy/" {
			return fmt.Errorf("%q is not an IAM policy ARN", text)
		}
	}
	return nil
}

func metadataState(config cty.Value) imds.ClientEnableState {
	val := keyprovider.Attr(config, "skip_metadata_api_check")
	switch {
	case val.IsNull() || !val.IsKnown():
		return imds.ClientDefaultEnableState
	case val.True():
		return imds.ClientDisabled
	default:
		return imds.ClientEnabled
	}
}

func boolAttr(config cty.Value, name string) bool {
	val := keyprovider.Attr(config, name)
	return !val.IsNull() && val.IsKnown() && val.True()
}

func optionalString(config cty.Value, name string) *string {
	val := keyprovider.Attr(config, name)
	if val.IsNull() || !val.IsKnown() {
		return nil
	}
	s := val.AsString()
	return &s
}

func envFallback(val, env string) string {
	if val != "" {
		return val
	}
	return os.Getenv(env)
}

func listEnvFallback(val []string, env string) []string {
	if len(val) > 0 {
		return val
	}
	if v := os.Getenv(env); v != "" {
		return []string{v}
	}
	return nil
}
