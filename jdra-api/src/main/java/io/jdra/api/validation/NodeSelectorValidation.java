package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;

/** Upstream {@code corevalidation.ValidateNodeSelector} (label values always checked). */
final class NodeSelectorValidation {
  private NodeSelectorValidation() {}

  static List<FieldError> nodeSelector(NodeSelector selector, FieldPath path) {
    FieldPath termsPath = path.child("nodeSelectorTerms");
    List<NodeSelectorTerm> terms = Lists.nn(selector.getNodeSelectorTerms());
    if (terms.isEmpty()) {
      return List.of(FieldError.required(termsPath, "must have at least one node selector term"));
    }
    List<FieldError> errs = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      errs.addAll(term(terms.get(i), termsPath.index(i)));
    }
    return errs;
  }

  private static List<FieldError> term(NodeSelectorTerm term, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<NodeSelectorRequirement> exprs = Lists.nn(term.getMatchExpressions());
    for (int j = 0; j < exprs.size(); j++) {
      errs.addAll(requirement(exprs.get(j), path.child("matchExpressions").index(j)));
    }
    List<NodeSelectorRequirement> fields = Lists.nn(term.getMatchFields());
    for (int j = 0; j < fields.size(); j++) {
      errs.addAll(fieldRequirement(fields.get(j), path.child("matchFields").index(j)));
    }
    return errs;
  }

  private static List<FieldError> requirement(NodeSelectorRequirement rq, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<String> values = Lists.nn(rq.getValues());
    String op = MetaValidation.nz(rq.getOperator());
    switch (op) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errs.add(
              FieldError.required(
                  path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errs.add(
              FieldError.forbidden(
                  path.child("values"),
                  "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (values.size() != 1) {
          errs.add(
              FieldError.required(
                  path.child("values"),
                  "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default ->
          errs.add(FieldError.invalid(path.child("operator"), op, "not a valid selector operator"));
    }
    errs.addAll(NameValidation.validateLabelName(rq.getKey(), path.child("key")));
    for (int i = 0; i < values.size(); i++) {
      errs.addAll(NameValidation.validateLabelValue(values.get(i), path.child("values").index(i)));
    }
    return errs;
  }

  private static List<FieldError> fieldRequirement(NodeSelectorRequirement rq, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<String> values = Lists.nn(rq.getValues());
    String op = MetaValidation.nz(rq.getOperator());
    if (op.equals("In") || op.equals("NotIn")) {
      if (values.size() != 1) {
        errs.add(
            FieldError.required(
                path.child("values"),
                "must be only one value when `operator` is 'In' or 'NotIn' for node field"
                    + " selector"));
      }
    } else {
      errs.add(FieldError.invalid(path.child("operator"), op, "not a valid selector operator"));
    }
    String key = MetaValidation.nz(rq.getKey());
    if (!key.equals("metadata.name")) {
      errs.add(FieldError.invalid(path.child("key"), key, "not a valid field selector key"));
    } else {
      for (int i = 0; i < values.size(); i++) {
        errs.addAll(NameValidation.validateNodeName(values.get(i), path.child("values").index(i)));
      }
    }
    return errs;
  }
}
