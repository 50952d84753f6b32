package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code pod-template-hash} of a pod template (upstream's {@code controller.ComputeHash}):
 * FNV-1a (32 bit) over a canonical rendering of the template, then over the collision count as 8
 * little-endian bytes when it is set, printed as a decimal number whose bytes are mapped onto
 * upstream's {@code SafeEncodeString} alphabet (no vowels, no look-alike digits), so a hash never
 * spells a word.
 *
 * <p>Upstream renders the Go struct with spew; the rendering here is JSON with object keys sorted
 * and empty values dropped. Equal templates get equal hashes on both, but the same template gets a
 * different hash here than on kube-controller-manager. Stateless.
 */
public final class PodTemplateHash {
  /** Upstream's {@code DefaultDeploymentUniqueLabelKey}. */
  public static final String LABEL = "pod-template-hash";

  /** {@code k8s.io/apimachinery/pkg/util/rand} alphanums. */
  static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private PodTemplateHash() {}

  public static String compute(PodTemplateSpec template, Integer collisionCount) {
    int hash = 0x811c9dc5;
    hash = fnv1a(hash, canonical(template).getBytes(StandardCharsets.UTF_8));
    if (collisionCount != null) {
      byte[] b = new byte[8];
      int c = collisionCount;
      for (int i = 0; i < 4; i++) {
        b[i] = (byte) (c >>> (8 * i));
      }
      hash = fnv1a(hash, b);
    }
    return safeEncodeString(Integer.toUnsignedString(hash));
  }

  static int fnv1a(int hash, byte[] data) {
    for (byte b : data) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    return hash;
  }

  /** Upstream's {@code SafeEncodeString}: each byte mapped onto the alphabet. */
  public static String safeEncodeString(String s) {
    StringBuilder r = new StringBuilder(s.length());
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      r.append(ALPHANUMS.charAt((b & 0xff) % ALPHANUMS.length()));
    }
    return r.toString();
  }

  /** The template as JSON with keys sorted and empty maps, lists and nulls dropped. */
  public static String canonical(PodTemplateSpec template) {
    JsonNode tree = MAPPER.readTree(Serialization.asJson(template));
    StringBuilder out = new StringBuilder();
    write(tree, out);
    return out.toString();
  }

  /**
   * Upstream's {@code EqualIgnoreHash}: the templates are equal apart from their {@code
   * pod-template-hash} label.
   */
  public static boolean equalIgnoreHash(PodTemplateSpec a, PodTemplateSpec b) {
    return canonical(withoutHash(a)).equals(canonical(withoutHash(b)));
  }

  private static PodTemplateSpec withoutHash(PodTemplateSpec t) {
    PodTemplateSpec copy = new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder(t).build();
    if (copy.getMetadata() != null && copy.getMetadata().getLabels() != null) {
      Map<String, String> labels = new java.util.LinkedHashMap<>(copy.getMetadata().getLabels());
      labels.remove(LABEL);
      copy.getMetadata().setLabels(labels);
    }
    return copy;
  }

  private static boolean isEmpty(JsonNode n) {
    return n == null || n.isNull() || (n.isContainer() && !hasContent(n));
  }

  private static boolean hasContent(JsonNode n) {
    for (JsonNode child : n) {
      if (!isEmpty(child)) {
        return true;
      }
    }
    return false;
  }

  private static void write(JsonNode n, StringBuilder out) {
    if (n.isObject()) {
      List<String> keys = new ArrayList<>();
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        if (!isEmpty(e.getValue())) {
          keys.add(e.getKey());
        }
      }
      keys.sort(null);
      out.append('{');
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(MAPPER.valueToTree(keys.get(i)).toString()).append(':');
        write(n.get(keys.get(i)), out);
      }
      out.append('}');
    } else if (n.isArray()) {
      out.append('[');
      boolean first = true;
      for (JsonNode child : n) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(child, out);
      }
      out.append(']');
    } else {
      out.append(n.toString());
    }
  }
}
