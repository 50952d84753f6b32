package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.jdra.api.nodeaffinity.NodeSelectors;
import io.jdra.api.validation.FieldError;
import java.util.List;

/**
 * Node selection of slices and devices ({@code nodeName}, {@code allNodes}, {@code nodeSelector}),
 * upstream's {@code NodeMatches}; selectors are matched by jdra-api's {@link NodeSelectors}, and
 * one that does not parse is an error, as with upstream's {@code nodeaffinity.NewNodeSelector}.
 */
final class NodeMatcher {
  private NodeMatcher() {}

  /** Thrown for a selector the API server would not have accepted. */
  static final class InvalidSelectorException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidSelectorException(String message) {
      super(message, null, false, false);
    }
  }

  /** Upstream {@code NodeMatches}. */
  static boolean matches(Node node, String nodeName, boolean allNodes, NodeSelector selector)
      throws InvalidSelectorException {
    if (nodeName != null && !nodeName.isEmpty()) {
      return node != null && nodeName.equals(name(node));
    }
    if (allNodes) {
      return true;
    }
    if (selector != null) {
      List<FieldError> errors = NodeSelectors.parseErrors(selector);
      if (!errors.isEmpty()) {
        throw new InvalidSelectorException(NodeSelectors.describe(errors));
      }
      return NodeSelectors.matches(selector, node);
    }
    return false;
  }

  static String name(Node node) {
    return node == null || node.getMetadata() == null ? "" : nz(node.getMetadata().getName());
  }

  static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }
}
