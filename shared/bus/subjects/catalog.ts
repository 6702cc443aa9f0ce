import { Type } from '@sinclair/typebox';
import { Model, ModelListQuery, ModelPage } from '../../schema/model';
import { ResolveReferencesReply, ResolveReferencesRequest } from '../../schema/references';
import { defineSubject } from '../subject';

const SERVICE = 'catalog';

export const catalogSubjects = {
  listModels: defineSubject(SERVICE, 'models.list', ModelListQuery, ModelPage),
  getModel: defineSubject(SERVICE, 'models.get', Type.Object({ id: Type.String() }, { additionalProperties: false }), Model),
};

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const catalogReferenceSubjects = {
  resolveReferences: defineSubject(SERVICE, 'references.resolve', ResolveReferencesRequest, ResolveReferencesReply),
};
