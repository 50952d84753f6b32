package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/**
 * Label selector matching as {@code metav1.LabelSelectorAsSelector}: a null selector selects
 * nothing, an empty one everything; {@code matchLabels} and every {@code matchExpressions} entry
 * must hold. Stateless.
 */
public final class LabelSelectors {
  private LabelSelectors() {}

  /** Whether {@code selector} selects an object with these labels (null labels: none). */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    Map<String, String> l = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
        if (!e.getValue().equals(l.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        if (!matches(r, l)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether the selector selects everything (upstream's {@code selector.Empty()}). */
  public static boolean isEmpty(LabelSelector selector) {
    return selector != null
        && (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
        && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
  }

  private static boolean matches(LabelSelectorRequirement r, Map<String, String> labels) {
    String value = labels.get(r.getKey());
    List<String> values = r.getValues() == null ? List.of() : r.getValues();
    return switch (r.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false; // validation rejects other operators; select nothing rather than all
    };
  }
}
