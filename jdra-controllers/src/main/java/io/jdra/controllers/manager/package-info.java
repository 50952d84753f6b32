/**
 * jdra's kube-controller-manager: a registry of controllers by upstream name ({@link
 * io.jdra.controllers.manager.Controllers}), selected by {@code --controllers} with upstream's
 * rules, run on shared informers by {@link io.jdra.controllers.manager.ControllerManager#start},
 * which returns a handle (synced, terminated, stop) and never assumes it owns the process, so
 * {@code jdra controller-manager} and the in-process {@code jdra up} start it the same way.
 *
 * <p>Adding a controller: write its factory (a {@link
 * io.jdra.controllers.manager.ControllerDescriptor.Factory} creating it from the {@link
 * io.jdra.controllers.manager.ControllerContext} before the informers start, returning a {@link
 * io.jdra.controllers.manager.Controller} that runs until its context is cancelled and drains), and
 * add a descriptor with the name from upstream's {@code controller_names.go} to {@link
 * io.jdra.controllers.manager.Controllers#builtIn()}.
 */
package io.jdra.controllers.manager;
