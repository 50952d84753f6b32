package io.jdra.cli.allocate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.cli.UserException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads YAML or JSON files (several documents per file, or {@code kind: List}) into an {@link
 * InputSet}. Errors name the file and document and say what is wrong.
 */
public final class InputReader {
  private static final ObjectMapper YAML = YAMLMapper.builder().build();
  private static final String RESOURCE_GROUP = "resource.k8s.io/";

  private InputReader() {}

  public static InputSet read(List<Path> files) {
    InputSet set = new InputSet();
    for (Path file : files) {
      readFile(file, set);
    }
    return set;
  }

  private static void readFile(Path file, InputSet set) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new UserException("read " + file + ": no such file");
    } catch (IOException e) {
      throw new UserException("read " + file + ": " + e.getMessage(), e);
    }
    // JSON is YAML, so one parser serves both, including multi-document YAML streams.
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (it.hasNextValue()) {
        docs.add(it.nextValue());
      }
    } catch (JacksonException e) {
      throw new UserException("parse " + file + ": " + e.getOriginalMessage(), e);
    }
    int index = 0;
    for (JsonNode doc : docs) {
      index++;
      if (doc == null || doc.isNull() || doc.isMissingNode()) {
        continue;
      }
      String where = file + ", document " + index;
      add(doc, where, set);
    }
  }

  private static void add(JsonNode doc, String where, InputSet set) {
    if (!doc.isObject()) {
      throw new UserException(where + ": expected a Kubernetes object, got " + doc.getNodeType());
    }
    String kind = doc.path("kind").asString("");
    String apiVersion = doc.path("apiVersion").asString("");
    if (kind.equals("List") || kind.endsWith("List") && doc.has("items")) {
      int i = 0;
      for (JsonNode item : doc.path("items")) {
        add(item, where + ", items[" + i++ + "]", set);
      }
      return;
    }
    String name = doc.path("metadata").path("name").asString("");
    String what = kind + " " + (name.isEmpty() ? "(no name)" : name) + " (" + where + ")";
    Object object =
        switch (kind) {
          case "DeviceClass" ->
              add(set.classes, convert(doc, DeviceClass.class, apiVersion, what, true));
          case "ResourceSlice" ->
              add(set.slices, convert(doc, ResourceSlice.class, apiVersion, what, true));
          case "DeviceTaintRule" ->
              add(set.taintRules, convert(doc, DeviceTaintRule.class, apiVersion, what, false));
          case "ResourceClaim" ->
              add(set.claims, convert(doc, ResourceClaim.class, apiVersion, what, true));
          case "Node" -> {
            if (!apiVersion.equals("v1")) {
              throw new UserException(what + ": apiVersion must be v1, got \"" + apiVersion + "\"");
            }
            yield add(set.nodes, convert(doc, Node.class, apiVersion, what, false));
          }
          case "" -> throw new UserException(where + ": object without kind");
          default ->
              throw new UserException(
                  what
                      + ": unsupported kind; jdra allocate reads DeviceClass, ResourceSlice,"
                      + " DeviceTaintRule, ResourceClaim and Node");
        };
    set.sources.add(new InputSet.Source(kind, name, where, object));
  }

  private static <T> T add(List<T> list, T object) {
    list.add(object);
    return object;
  }

  private static <T> T convert(
      JsonNode doc, Class<T> type, String apiVersion, String what, boolean v1Only) {
    if (!apiVersion.equals("v1")) {
      boolean resource = apiVersion.startsWith(RESOURCE_GROUP);
      if (!resource || v1Only && !apiVersion.equals(RESOURCE_GROUP + "v1")) {
        throw new UserException(
            what
                + ": apiVersion must be "
                + RESOURCE_GROUP
                + "v1, got \""
                + apiVersion
                + "\" (convert older versions with kubectl convert or an API server)");
      }
    }
    try {
      return YAML.treeToValue(doc, type);
    } catch (JacksonException e) {
      throw new UserException(what + ": " + e.getOriginalMessage(), e);
    }
  }
}
