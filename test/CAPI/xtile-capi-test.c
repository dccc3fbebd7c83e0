/*===- xtile-capi-test.c - xtile through MLIR's C API ---------------------===*\
|*                                                                            *|
|* Loads xtile's dialects by handle, parses a Tensor IR module, verifies and *|
|* prints it, runs --lower-to-loop on it through a parsed pass pipeline, and *|
|* shows that bad input is reported, not crashed on. Run by capi.test.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "xtile-c/Dialects.h"

#include <stdio.h>
#include <string.h>

static void print(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

static MlirLogicalResult diagnostic(MlirDiagnostic d, void *user) {
  fprintf(stdout, "diagnostic: ");
  mlirDiagnosticPrint(d, print, stdout);
  fprintf(stdout, "\n");
  return mlirLogicalResultSuccess();
}

static const char *kModule =
    "func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
    "  %y = xtensor.softmax %x dim 1 : tensor<4x8xf32>\n"
    "  return %y : tensor<4x8xf32>\n"
    "}\n";

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, diagnostic, NULL, NULL);

  /* Every dialect by its handle. */
  MlirDialectHandle handles[] = {
      mlirGetDialectHandle__xtensor__(), mlirGetDialectHandle__xloop__(),
      mlirGetDialectHandle__xtile__(), mlirGetDialectHandle__xkernel__()};
  for (int i = 0; i < 4; ++i) {
    MlirDialect d = mlirDialectHandleLoadDialect(handles[i], ctx);
    MlirStringRef ns = mlirDialectGetNamespace(d);
    printf("loaded dialect: %.*s\n", (int)ns.length, ns.data);
  }
  /* And what xtile programs contain besides. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  xtileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    printf("parse failed\n");
    return 1;
  }
  MlirOperation op = mlirModuleGetOperation(module);
  printf("verified: %d\n", mlirOperationVerify(op));
  mlirOperationPrint(op, print, stdout);
  printf("\n");

  mlirRegisterXTilePasses();
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(lower-to-loop)"), print,
      stdout);
  if (mlirLogicalResultIsFailure(parsed)) {
    printf("pipeline parse failed\n");
    return 1;
  }
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, op);
  printf("lower-to-loop: %s\n",
         mlirLogicalResultIsSuccess(ran) ? "success" : "failure");
  mlirOperationPrint(op, print, stdout);
  printf("\n");

  /* Bad input: a located diagnostic and a null module. */
  MlirModule bad = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
               "  %y = xtensor.softmax %x dim 3 : tensor<4xf32>\n"
               "  return %y : tensor<4xf32>\n"
               "}\n"));
  printf("bad module is null: %d\n", mlirModuleIsNull(bad));

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
