package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Node selection of slices and devices ({@code nodeName}, {@code allNodes}, {@code nodeSelector}),
 * with the semantics of upstream's {@code nodeaffinity.NodeSelector}: terms are ORed, the
 * requirements of a term ANDed, an empty term matches nothing.
 */
public final class NodeMatcher {
  private NodeMatcher() {}

  /** Thrown for a selector the API server would not have accepted. */
  public static final class InvalidSelectorException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidSelectorException(String message) {
      super(message, null, false, false);
    }
  }

  /** Upstream {@code NodeMatches}. */
  public static boolean matches(Node node, String nodeName, boolean allNodes, NodeSelector selector)
      throws InvalidSelectorException {
    if (nodeName != null && !nodeName.isEmpty()) {
      return node != null && nodeName.equals(name(node));
    }
    if (allNodes) {
      return true;
    }
    if (selector != null) {
      return selectorMatches(node, selector);
    }
    return false;
  }

  static String name(Node node) {
    return node == null || node.getMetadata() == null ? "" : nz(node.getMetadata().getName());
  }

  private static Map<String, String> labels(Node node) {
    if (node == null || node.getMetadata() == null || node.getMetadata().getLabels() == null) {
      return Map.of();
    }
    return node.getMetadata().getLabels();
  }

  static boolean selectorMatches(Node node, NodeSelector selector) throws InvalidSelectorException {
    List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
    if (terms == null) {
      return false;
    }
    // Validate everything first: upstream rejects the whole selector when any part is invalid.
    for (NodeSelectorTerm term : terms) {
      for (NodeSelectorRequirement r : list(term.getMatchExpressions())) {
        validateLabel(r);
      }
      for (NodeSelectorRequirement r : list(term.getMatchFields())) {
        validateField(r);
      }
    }
    for (NodeSelectorTerm term : terms) {
      if (termMatches(node, term)) {
        return true;
      }
    }
    return false;
  }

  private static boolean termMatches(Node node, NodeSelectorTerm term) {
    List<NodeSelectorRequirement> exprs = list(term.getMatchExpressions());
    List<NodeSelectorRequirement> fields = list(term.getMatchFields());
    if (exprs.isEmpty() && fields.isEmpty()) {
      return false;
    }
    Map<String, String> labels = labels(node);
    for (NodeSelectorRequirement r : exprs) {
      if (!labelMatches(labels, r)) {
        return false;
      }
    }
    for (NodeSelectorRequirement r : fields) {
      boolean in = list(r.getValues()).contains(name(node));
      if ("In".equals(r.getOperator()) != in) {
        return false;
      }
    }
    return true;
  }

  private static boolean labelMatches(Map<String, String> labels, NodeSelectorRequirement r) {
    String value = labels.get(r.getKey());
    boolean has = labels.containsKey(r.getKey());
    List<String> values = list(r.getValues());
    return switch (r.getOperator()) {
      case "In" -> has && values.contains(value);
      case "NotIn" -> !has || !values.contains(value);
      case "Exists" -> has;
      case "DoesNotExist" -> !has;
      case "Gt", "Lt" -> {
        if (!has) {
          yield false;
        }
        long actual;
        try {
          actual = Long.parseLong(value);
        } catch (NumberFormatException e) {
          yield false;
        }
        long bound = Long.parseLong(values.get(0));
        yield "Gt".equals(r.getOperator()) ? actual > bound : actual < bound;
      }
      default -> false;
    };
  }

  private static void validateLabel(NodeSelectorRequirement r) throws InvalidSelectorException {
    String op = nz(r.getOperator());
    int n = list(r.getValues()).size();
    switch (op) {
      case "In", "NotIn" -> {
        if (n == 0) {
          throw new InvalidSelectorException(
              "for 'in', 'notin' operators, values set can't be empty");
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (n != 0) {
          throw new InvalidSelectorException(
              "values set must be empty for exists and does not exist");
        }
      }
      case "Gt", "Lt" -> {
        if (n != 1) {
          throw new InvalidSelectorException(
              "for 'Gt', 'Lt' operators, exactly one value is required");
        }
        try {
          Long.parseLong(r.getValues().get(0));
        } catch (NumberFormatException e) {
          throw new InvalidSelectorException(
              "for 'Gt', 'Lt' operators, the value must be an integer");
        }
      }
      default ->
          throw new InvalidSelectorException(
              "\"" + op + "\" is not a valid label selector operator");
    }
  }

  private static void validateField(NodeSelectorRequirement r) throws InvalidSelectorException {
    if (!"metadata.name".equals(r.getKey())) {
      throw new InvalidSelectorException(
          "\"" + nz(r.getKey()) + "\" is not a valid node field selector key");
    }
    String op = nz(r.getOperator());
    if (!op.equals("In") && !op.equals("NotIn")) {
      throw new InvalidSelectorException(
          "\"" + op + "\" is not a valid node field selector operator");
    }
    if (list(r.getValues()).size() != 1) {
      throw new InvalidSelectorException(
          "unexpected number of value ("
              + list(r.getValues()).size()
              + ") for node field selector operator \""
              + op
              + "\"");
    }
  }

  static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }
}
