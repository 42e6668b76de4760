package pulumi

// packageSchema is the Pulumi package schema GetSchema returns.
const packageSchema = `{
  "name": "tpulumi",
  "version": "0.1.0",
  "config": {
    "variables": {
      "rootDir": {"type": "string", "description": "Directory of the test cloud."},
      "failConfigure": {"type": "string"}
    }
  },
  "provider": {
    "inputProperties": {
      "rootDir": {"type": "string", "description": "Directory of the test cloud."},
      "failConfigure": {"type": "string"}
    }
  },
  "types": {
    "tpulumi:index:Mode": {
      "type": "string",
      "enum": [{"value": "auto"}, {"value": "manual"}]
    },
    "tpulumi:index:Settings": {
      "type": "object",
      "properties": {
        "mode": {"$ref": "#/types/tpulumi:index:Mode"},
        "level": {"type": "integer"}
      },
      "required": ["mode"]
    }
  },
  "resources": {
    "tpulumi:index:Thing": {
      "description": "A thing stored as a file in the test cloud.",
      "inputProperties": {
        "name": {"type": "string", "replaceOnChanges": true},
        "content": {"type": "string"},
        "sizeClass": {"type": "string", "default": "small"},
        "nonce": {"type": "string"},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "ports": {"type": "array", "items": {"type": "integer"}},
        "password": {"type": "string", "secret": true},
        "settings": {"$ref": "#/types/tpulumi:index:Settings"},
        "fail": {"type": "string"},
        "source": {"$ref": "pulumi.json#/Asset"}
      },
      "requiredInputs": ["name"],
      "properties": {
        "name": {"type": "string"},
        "content": {"type": "string"},
        "sizeClass": {"type": "string"},
        "nonce": {"type": "string"},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "ports": {"type": "array", "items": {"type": "integer"}},
        "password": {"type": "string", "secret": true},
        "settings": {"$ref": "#/types/tpulumi:index:Settings"},
        "fail": {"type": "string"},
        "source": {"$ref": "pulumi.json#/Asset"},
        "contentLength": {"type": "integer"},
        "revision": {"type": "integer"},
        "createdAt": {"type": "string"},
        "apiKey": {"type": "string", "description": "Returned as a secret at run time, though not declared secret."}
      },
      "required": ["name", "sizeClass", "nonce", "contentLength", "revision", "createdAt"]
    }
  },
  "functions": {
    "tpulumi:index:getThing": {
      "inputs": {
        "properties": {"id": {"type": "string"}},
        "required": ["id"]
      },
      "outputs": {
        "properties": {
          "name": {"type": "string"},
          "content": {"type": "string"},
          "sizeClass": {"type": "string"}
        },
        "required": ["name", "sizeClass"]
      }
    },
    "tpulumi:index:listThings": {
      "description": "Things whose name starts with prefix; StreamInvoke streams one answer per thing.",
      "inputs": {
        "properties": {"prefix": {"type": "string"}}
      },
      "outputs": {
        "properties": {
          "name": {"type": "string"},
          "content": {"type": "string"}
        }
      }
    }
  }
}`
