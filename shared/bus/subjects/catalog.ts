import { Type } from '@sinclair/typebox';
import { Model, ModelListQuery, ModelPage } from '../../schema/model';
import { defineSubject } from '../subject';

const SERVICE = 'catalog';

export const catalogSubjects = {
  listModels: defineSubject(SERVICE, 'models.list', ModelListQuery, ModelPage),
  getModel: defineSubject(SERVICE, 'models.get', Type.Object({ id: Type.String() }, { additionalProperties: false }), Model),
};
