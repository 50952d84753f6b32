package io.jdra.cli.allocate;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/** Prints claims as kubectl would: YAML documents, or JSON (a {@code List} for several). */
public final class OutputWriter {
  /** Output formats of {@code -o}. */
  public enum Format {
    yaml,
    json
  }

  private static final ObjectMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
          .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
          .build();
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private OutputWriter() {}

  public static String write(List<ResourceClaim> claims, Format format) {
    if (format == Format.json) {
      if (claims.size() == 1) {
        return JSON.writeValueAsString(claims.get(0)) + "\n";
      }
      Map<String, Object> list = new LinkedHashMap<>();
      list.put("apiVersion", "v1");
      list.put("kind", "List");
      list.put("items", claims);
      return JSON.writeValueAsString(list) + "\n";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < claims.size(); i++) {
      if (i > 0) {
        sb.append("---\n");
      }
      sb.append(YAML.writeValueAsString(claims.get(i)));
    }
    return sb.toString();
  }
}
