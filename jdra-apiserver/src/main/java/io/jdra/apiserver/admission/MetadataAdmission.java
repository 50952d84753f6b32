package io.jdra.apiserver.admission;

import io.jdra.api.validation.Syntax;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates object metadata as upstream's {@code ValidateObjectMeta}: name format, label keys and
 * values, annotation keys and total size. Stateless.
 */
public final class MetadataAdmission implements Admission {
  private static final long ANNOTATIONS_LIMIT = 256 * 1024;

  @Override
  public List<Cause> admit(Request r) {
    ObjectNode meta = Json.child(r.object(), "metadata");
    List<Cause> causes = new ArrayList<>();
    String name = Json.text(meta, "name");
    if (name == null || name.isEmpty()) {
      causes.add(
          new Cause(
              "FieldValueRequired",
              "Required value: name or generateName is required",
              "metadata.name"));
    } else if (r.operation() == Operation.CREATE) {
      boolean label = r.type().plural().equals("namespaces");
      checkName(name, label, causes);
    }
    labels(meta.get("labels"), causes);
    annotations(meta.get("annotations"), causes);
    return causes;
  }

  private static void checkName(String name, boolean label, List<Cause> causes) {
    if (label) {
      if (name.length() > 63 || !Syntax.dnsLabel(name)) {
        causes.add(
            invalid(
                "metadata.name",
                name,
                name.length() > 63
                    ? "must be no more than 63 characters"
                    : "a lowercase RFC 1123 label must consist of lower case alphanumeric"
                        + " characters or '-', and must start and end with an alphanumeric"
                        + " character (e.g. 'my-name',  or '123-abc', regex used for validation"
                        + " is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
      }
      return;
    }
    if (name.length() > 253) {
      causes.add(invalid("metadata.name", name, "must be no more than 253 characters"));
    } else if (!Syntax.dnsSubdomain(name)) {
      causes.add(
          invalid(
              "metadata.name",
              name,
              "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                  + " '-' or '.', and must start and end with an alphanumeric character (e.g."
                  + " 'example.com', regex used for validation is"
                  + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
    }
  }

  private static void labels(JsonNode labels, List<Cause> causes) {
    for (Map.Entry<String, String> e : Json.stringMap(labels).entrySet()) {
      qualifiedName(e.getKey(), "metadata.labels", causes);
      String v = e.getValue();
      if (v.length() > 63) {
        causes.add(invalid("metadata.labels", v, "must be no more than 63 characters"));
      } else if (!Syntax.labelValue(v)) {
        causes.add(
            invalid(
                "metadata.labels",
                v,
                "a valid label must be an empty string or consist of alphanumeric characters,"
                    + " '-', '_' or '.', and must start and end with an alphanumeric character"
                    + " (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation"
                    + " is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
      }
    }
  }

  private static void annotations(JsonNode annotations, List<Cause> causes) {
    long total = 0;
    for (Map.Entry<String, String> e : Json.stringMap(annotations).entrySet()) {
      qualifiedName(e.getKey().toLowerCase(java.util.Locale.ROOT), "metadata.annotations", causes);
      total += e.getKey().length() + e.getValue().length();
    }
    if (total > ANNOTATIONS_LIMIT) {
      causes.add(
          new Cause(
              "FieldValueTooLong",
              "Too long: may not be more than " + ANNOTATIONS_LIMIT + " bytes",
              "metadata.annotations"));
    }
  }

  private static void qualifiedName(String key, String field, List<Cause> causes) {
    int slash = key.indexOf('/');
    String prefix = slash < 0 ? null : key.substring(0, slash);
    String name = slash < 0 ? key : key.substring(slash + 1);
    boolean ok =
        !name.isEmpty()
            && name.length() <= 63
            && Syntax.namePart(name)
            && key.indexOf('/', slash + 1) < 0
            && (prefix == null
                || (!prefix.isEmpty() && prefix.length() <= 253 && Syntax.dnsSubdomain(prefix)));
    if (!ok) {
      causes.add(
          invalid(
              field,
              key,
              "name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
                  + " and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or"
                  + " '123-abc', regex used for validation is"
                  + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"));
    }
  }

  static Cause invalid(String field, String value, String detail) {
    return new Cause("FieldValueInvalid", "Invalid value: \"" + value + "\": " + detail, field);
  }
}
