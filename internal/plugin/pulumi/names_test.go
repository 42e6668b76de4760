package pulumi

import "testing"

func TestTokenNames(t *testing.T) {
	tests := []struct {
		token, resource, dataSource string
	}{
		{"tpulumi:index:Thing", "tpulumi_thing", "tpulumi_thing"},
		{"aws:s3/bucket:Bucket", "aws_s3_bucket", "aws_s3_bucket"},
		{"random:index/randomPet:RandomPet", "random_random_pet", "random_random_pet"},
		{"tpulumi:index:getThing", "tpulumi_get_thing", "tpulumi_thing"},
		{"aws:ec2/getAmi:getAmi", "aws_ec2_get_ami", "aws_ec2_ami"},
		{"pkg:index:getaway", "pkg_getaway", "pkg_getaway"},
	}
	for _, test := range tests {
		if got := TypeName(test.token); got != test.resource {
			t.Errorf("TypeName(%q) = %q, want %q", test.token, got, test.resource)
		}
		if got := DataSourceName(test.token); got != test.dataSource {
			t.Errorf("DataSourceName(%q) = %q, want %q", test.token, got, test.dataSource)
		}
	}
	for in, want := range map[string]string{"sizeClass": "size_class", "httpURL": "http_url", "URLPath": "url_path", "already_snake": "already_snake", "v2Name": "v2_name"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}
