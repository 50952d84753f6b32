package io.jdra.api.nodeaffinity;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.FieldPath;
import io.jdra.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream {@code nodeaffinity}: does a node match a {@link NodeSelector}, a pod's required node
 * affinity, and how much does it match its preferred terms.
 *
 * <p>Semantics (all upstream's): terms are ORed and the requirements of one term ANDed; a term
 * without requirements matches nothing; {@code matchFields} only know {@code metadata.name} (any
 * other key reads as the empty string) and are ignored for a node without a name; a {@code Gt} or
 * {@code Lt} requirement never matches a label value that is not an integer. A term that does not
 * parse never matches ({@code NewLazyErrorNodeSelector}); callers that must reject such a selector
 * as a whole, as upstream's {@code NewNodeSelector} does, check {@link #parseErrors} first.
 *
 * <p>Stateless and thread-safe; nothing given is modified.
 */
public final class NodeSelectors {
  private static final List<String> OPERATORS =
      List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
  private static final List<String> FIELD_OPERATORS = List.of("In", "NotIn");
  private static final String NODE_NAME_FIELD = "metadata.name";

  private NodeSelectors() {}

  /**
   * Whether {@code node} matches {@code selector} (upstream {@code LazyErrorNodeSelector.Match}):
   * false for a null node or selector, and terms that do not parse are skipped.
   */
  public static boolean matches(NodeSelector selector, Node node) {
    if (selector == null || node == null) {
      return false;
    }
    for (NodeSelectorTerm term : nn(selector.getNodeSelectorTerms())) {
      if (termMatches(term, node)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why {@code selector} does not parse, as upstream's {@code NewNodeSelector} reports it (paths
   * from {@code nodeSelectorTerms}); empty when it parses. Terms without requirements are not
   * checked: upstream drops them before parsing.
   */
  public static List<FieldError> parseErrors(NodeSelector selector) {
    List<FieldError> errs = new ArrayList<>();
    List<NodeSelectorTerm> terms =
        selector == null ? List.of() : nn(selector.getNodeSelectorTerms());
    for (int i = 0; i < terms.size(); i++) {
      if (!isEmpty(terms.get(i))) {
        errs.addAll(termErrors(terms.get(i), FieldPath.root("nodeSelectorTerms").index(i)));
      }
    }
    return errs;
  }

  /**
   * One term on its own: false when it has no requirements or does not parse, else whether every
   * requirement holds for {@code node}.
   */
  public static boolean termMatches(NodeSelectorTerm term, Node node) {
    if (term == null || node == null || isEmpty(term)) {
      return false;
    }
    if (!termErrors(term, FieldPath.root("term")).isEmpty()) {
      return false;
    }
    Map<String, String> labels = labels(node);
    for (NodeSelectorRequirement r : nn(term.getMatchExpressions())) {
      if (!labelMatches(labels, r)) {
        return false;
      }
    }
    String name = name(node);
    if (name.isEmpty()) {
      // Upstream has no fields for a node without a name and then does not check matchFields.
      return true;
    }
    for (NodeSelectorRequirement r : nn(term.getMatchFields())) {
      String actual = NODE_NAME_FIELD.equals(r.getKey()) ? name : "";
      boolean equal = actual.equals(r.getValues().get(0));
      if ("In".equals(r.getOperator()) != equal) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code pod} may run on {@code node} by its {@code spec.nodeSelector} (every label
   * equal) and its required node affinity (upstream {@code
   * GetRequiredNodeAffinity(pod).Match(node)}).
   */
  public static boolean requiredNodeAffinityMatches(Pod pod, Node node) {
    if (node == null) {
      return false;
    }
    if (pod == null || pod.getSpec() == null) {
      return true;
    }
    Map<String, String> labels = labels(node);
    Map<String, String> wanted = pod.getSpec().getNodeSelector();
    if (wanted != null) {
      for (Map.Entry<String, String> e : wanted.entrySet()) {
        if (!labels.containsKey(e.getKey()) || !labels.get(e.getKey()).equals(e.getValue())) {
          return false;
        }
      }
    }
    var affinity = pod.getSpec().getAffinity();
    if (affinity == null
        || affinity.getNodeAffinity() == null
        || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return true;
    }
    return matches(
        affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), node);
  }

  /**
   * Why preferred scheduling terms do not parse, as upstream's {@code NewPreferredSchedulingTerms}
   * (paths are the list indexes); terms with weight 0 or without requirements are not checked.
   */
  public static List<FieldError> preferredParseErrors(List<PreferredSchedulingTerm> terms) {
    List<FieldError> errs = new ArrayList<>();
    List<PreferredSchedulingTerm> list = nn(terms);
    for (int i = 0; i < list.size(); i++) {
      PreferredSchedulingTerm t = list.get(i);
      if (counts(t)) {
        errs.addAll(termErrors(t.getPreference(), FieldPath.root("").index(i)));
      }
    }
    return errs;
  }

  /**
   * The sum of the weights of the preferred terms {@code node} matches (upstream {@code
   * PreferredSchedulingTerms.Score}); terms with weight 0, without requirements or that do not
   * parse count nothing.
   */
  public static long preferredScore(List<PreferredSchedulingTerm> terms, Node node) {
    long score = 0;
    for (PreferredSchedulingTerm t : nn(terms)) {
      if (counts(t) && termMatches(t.getPreference(), node)) {
        score += t.getWeight();
      }
    }
    return score;
  }

  /**
   * Errors joined as upstream's flattened aggregate prints them: one error as itself, several as
   * {@code [a, b]} with duplicates removed.
   */
  public static String describe(List<FieldError> errors) {
    Set<String> messages = new LinkedHashSet<>();
    for (FieldError e : errors) {
      messages.add(e.toString());
    }
    if (messages.size() == 1) {
      return messages.iterator().next();
    }
    return "[" + String.join(", ", messages) + "]";
  }

  private static boolean counts(PreferredSchedulingTerm t) {
    return t != null
        && t.getWeight() != null
        && t.getWeight() != 0
        && t.getPreference() != null
        && !isEmpty(t.getPreference());
  }

  private static boolean isEmpty(NodeSelectorTerm term) {
    return nn(term.getMatchExpressions()).isEmpty() && nn(term.getMatchFields()).isEmpty();
  }

  private static List<FieldError> termErrors(NodeSelectorTerm term, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<NodeSelectorRequirement> exprs = nn(term.getMatchExpressions());
    for (int i = 0; i < exprs.size(); i++) {
      errs.addAll(labelErrors(exprs.get(i), path.child("matchExpressions").index(i)));
    }
    List<NodeSelectorRequirement> fields = nn(term.getMatchFields());
    for (int i = 0; i < fields.size(); i++) {
      errs.addAll(fieldErrors(fields.get(i), path.child("matchFields").index(i)));
    }
    return errs;
  }

  /** Upstream {@code labels.NewRequirement} with the node selector operators. */
  private static List<FieldError> labelErrors(NodeSelectorRequirement r, FieldPath path) {
    String op = nz(r.getOperator());
    if (!OPERATORS.contains(op)) {
      // Upstream skips the rest of a requirement with an unknown operator.
      return List.of(FieldError.notSupported(path.child("operator"), op, OPERATORS));
    }
    List<FieldError> errs = new ArrayList<>();
    String key = nz(r.getKey());
    List<String> keyErrs = NameValidation.isQualifiedName(key);
    if (!keyErrs.isEmpty()) {
      errs.add(FieldError.invalid(path.child("key"), key, String.join("; ", keyErrs)));
    }
    List<String> values = nn(r.getValues());
    FieldPath valuesPath = path.child("values");
    switch (op) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errs.add(
              FieldError.invalid(
                  valuesPath, values, "for 'in', 'notin' operators, values set can't be empty"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errs.add(
              FieldError.invalid(
                  valuesPath, values, "values set must be empty for exists and does not exist"));
        }
      }
      default -> {
        if (values.size() != 1) {
          errs.add(
              FieldError.invalid(
                  valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
        }
        for (int i = 0; i < values.size(); i++) {
          if (parseInt(values.get(i)) == null) {
            errs.add(
                FieldError.invalid(
                    valuesPath.index(i),
                    values.get(i),
                    "for 'Gt', 'Lt' operators, the value must be an integer"));
          }
        }
      }
    }
    for (int i = 0; i < values.size(); i++) {
      List<String> valueErrs = NameValidation.isLabelValue(nz(values.get(i)));
      if (!valueErrs.isEmpty()) {
        errs.add(
            FieldError.invalid(valuesPath.index(i), values.get(i), String.join("; ", valueErrs)));
      }
    }
    return errs;
  }

  /** Upstream {@code nodeSelectorRequirementsAsFieldSelector}: In or NotIn with one value. */
  private static List<FieldError> fieldErrors(NodeSelectorRequirement r, FieldPath path) {
    String op = nz(r.getOperator());
    if (!FIELD_OPERATORS.contains(op)) {
      return List.of(FieldError.notSupported(path.child("operator"), op, FIELD_OPERATORS));
    }
    List<String> values = nn(r.getValues());
    if (values.size() != 1) {
      return List.of(FieldError.invalid(path.child("values"), values, "must have one element"));
    }
    return List.of();
  }

  private static boolean labelMatches(Map<String, String> labels, NodeSelectorRequirement r) {
    String key = r.getKey();
    boolean has = labels.containsKey(key);
    List<String> values = nn(r.getValues());
    return switch (r.getOperator()) {
      case "In" -> has && values.contains(labels.get(key));
      case "NotIn" -> !has || !values.contains(labels.get(key));
      case "Exists" -> has;
      case "DoesNotExist" -> !has;
      default -> {
        Long actual = has ? parseInt(labels.get(key)) : null;
        if (actual == null) {
          yield false;
        }
        long bound = parseInt(values.get(0));
        yield "Gt".equals(r.getOperator()) ? actual > bound : actual < bound;
      }
    };
  }

  /** Go's {@code strconv.ParseInt(s, 10, 64)}; null when it fails. */
  private static Long parseInt(String s) {
    if (s == null || s.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Map<String, String> labels(Node node) {
    if (node.getMetadata() == null || node.getMetadata().getLabels() == null) {
      return Map.of();
    }
    return node.getMetadata().getLabels();
  }

  private static String name(Node node) {
    return node.getMetadata() == null ? "" : nz(node.getMetadata().getName());
  }

  private static <T> List<T> nn(List<T> l) {
    return l == null ? List.of() : l;
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
