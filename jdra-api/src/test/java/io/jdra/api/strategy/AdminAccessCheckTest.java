package io.jdra.api.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.validation.ErrorType;
import io.jdra.api.validation.FieldError;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AdminAccessCheckTest {
  private static final String DETAIL =
      "Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true`"
          + " label on the containing namespace";
  private static final Map<String, String> ADMIN_NS =
      Map.of("resource.kubernetes.io/admin-access", "true");

  static void secondRequestAdmin(ResourceClaim c) {
    c.getSpec().getDevices().getRequests().get(1).getExactly().setAdminAccess(true);
  }

  static Stream<Arguments> createCases() {
    Consumer<ResourceClaim> none = c -> {};
    Consumer<ResourceClaim> adminFalse = Fixtures::adminAccessFalseInSpec;
    Consumer<ResourceClaim> second = AdminAccessCheckTest::secondRequestAdmin;
    String path = "spec.devices.requests[1].exactly.adminAccess: ";
    return Stream.of(
        Arguments.of(Named.of("no admin access, no labels", none), null, List.of()),
        Arguments.of(Named.of("adminAccess=false needs no label", adminFalse), Map.of(), List.of()),
        Arguments.of(Named.of("admin access, label true", second), ADMIN_NS, List.of()),
        Arguments.of(Named.of("admin access, no labels", second), null, List.of(path + DETAIL)),
        Arguments.of(
            Named.of("admin access, label false", second),
            Map.of("resource.kubernetes.io/admin-access", "false"),
            List.of(path + DETAIL)),
        Arguments.of(
            Named.of("admin access, label True (case-sensitive)", second),
            Map.of("resource.kubernetes.io/admin-access", "True"),
            List.of(path + DETAIL)),
        Arguments.of(
            Named.of("admin access, old label name", second),
            Map.of("resource.k8s.io/admin-access", "true"),
            List.of(path + DETAIL)));
  }

  @ParameterizedTest
  @MethodSource("createCases")
  void claimCreate(Consumer<ResourceClaim> mutator, Map<String, String> labels, List<String> want) {
    List<FieldError> errs = AdminAccessCheck.resourceClaim(Fixtures.claim(mutator), labels);
    assertThat(errs).extracting(FieldError::toString).isEqualTo(want);
  }

  @ParameterizedTest
  @MethodSource("createCases")
  void templateCreateUsesTheSamePath(
      Consumer<ResourceClaim> mutator, Map<String, String> labels, List<String> want) {
    List<FieldError> errs =
        AdminAccessCheck.resourceClaimTemplate(Fixtures.template(mutator), labels);
    assertThat(errs).extracting(FieldError::toString).isEqualTo(want);
  }

  @Test
  void errorIsForbiddenType() {
    FieldError e =
        AdminAccessCheck.resourceClaim(Fixtures.claim(Fixtures::adminAccessInSpec), Map.of())
            .get(0);
    assertThat(e.type()).isEqualTo(ErrorType.FORBIDDEN);
    assertThat(e.field()).isEqualTo("spec.devices.requests[0].exactly.adminAccess");
  }

  @Test
  void namespaceIsLookedUpOnlyWhenNeeded() {
    AtomicInteger lookups = new AtomicInteger();
    AdminAccessCheck.NamespaceLabels counting =
        ns -> {
          lookups.incrementAndGet();
          assertThat(ns).isEqualTo("ns");
          return ADMIN_NS;
        };
    assertThat(AdminAccessCheck.resourceClaim(Fixtures.claim(), counting)).isEmpty();
    assertThat(lookups).hasValue(0);
    assertThat(
            AdminAccessCheck.resourceClaim(Fixtures.claim(Fixtures::adminAccessInSpec), counting))
        .isEmpty();
    assertThat(lookups).hasValue(1);
  }

  @Test
  void failedLookupIsAnInternalError() {
    List<FieldError> errs =
        AdminAccessCheck.resourceClaim(
            Fixtures.claim(Fixtures::adminAccessInSpec),
            ns -> {
              throw new IllegalStateException("namespaces \"ns\" not found");
            });
    assertThat(errs)
        .extracting(FieldError::toString)
        .containsExactly(
            "spec.devices.requests[0].exactly.adminAccess: Internal error: could not retrieve"
                + " namespace to verify admin access: namespaces \"ns\" not found");
  }

  static Stream<Arguments> statusCases() {
    Consumer<ResourceClaim> none = c -> {};
    Consumer<ResourceClaim> granted = Fixtures::adminAccessInStatus;
    Consumer<ResourceClaim> secondGranted =
        c -> c.getStatus().getAllocation().getDevices().getResults().get(1).setAdminAccess(true);
    Consumer<ResourceClaim> grantedFalse =
        c -> c.getStatus().getAllocation().getDevices().getResults().get(0).setAdminAccess(false);
    String path = "status.allocation.devices.results[1].adminAccess: ";
    return Stream.of(
        Arguments.of(Named.of("no admin access", none), none, List.of()),
        Arguments.of(Named.of("adminAccess=false", grantedFalse), none, List.of()),
        Arguments.of(Named.of("newly granted", secondGranted), none, List.of(path + DETAIL)),
        Arguments.of(
            Named.of("newly granted, old had false", secondGranted),
            grantedFalse,
            List.of(path + DETAIL)),
        Arguments.of(Named.of("already granted before", secondGranted), granted, List.of()));
  }

  @ParameterizedTest
  @MethodSource("statusCases")
  void claimStatusUpdateWithoutLabel(
      Consumer<ResourceClaim> updated, Consumer<ResourceClaim> old, List<String> want) {
    List<FieldError> errs =
        AdminAccessCheck.resourceClaimStatusUpdate(
            Fixtures.claim(updated), Fixtures.claim(old), Map.of());
    assertThat(errs).extracting(FieldError::toString).isEqualTo(want);
  }

  @Test
  void claimStatusUpdateWithLabelPasses() {
    assertThat(
            AdminAccessCheck.resourceClaimStatusUpdate(
                Fixtures.claim(Fixtures::adminAccessInStatus), Fixtures.claim(), ADMIN_NS))
        .isEmpty();
  }
}
